package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/** One ping run (rtt_sample.v2, and v1). */
public record RttSample(
        @JsonUnwrapped Envelope envelope,
        String runId,
        String tool,
        String target,
        Integer packetSize,
        Double intervalS,
        long sent,
        long received,
        Long duplicates,
        double lossPercent,
        Double rttMinMs,
        Double rttAvgMs,
        Double rttMaxMs,
        Double rttMdevMs,
        RunError error)
        implements HasSrc {

    public static final String SCHEMA = ContractNames.SCHEMA_RAW_RTT;
}
