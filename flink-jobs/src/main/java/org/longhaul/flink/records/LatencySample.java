package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One run of a one-way latency test in one direction, src to dst (latency_sample.v1): pScheduler's
 * latency and latencybg tests (owping, powstream, twping).
 */
public record LatencySample(
        @JsonUnwrapped Envelope envelope,
        String runId,
        String tool,
        Double durationS,
        long packetsSent,
        long packetsReceived,
        long packetsLost,
        Long packetsDuplicated,
        Long packetsReordered,
        double lossPercent,
        Double delayMinMs,
        Double delayMedianMs,
        Double delayMeanMs,
        Double delayP95Ms,
        Double delayMaxMs,
        Double jitterMs,
        Integer ttlMin,
        Integer ttlMax,
        Double clockErrorMs,
        RunError error)
        implements HasSrc {

    public static final String SCHEMA = ContractNames.SCHEMA_RAW_LATENCY;

    /** The statistics' and detectors' protocol of one-way measurements. */
    public static final String PROTOCOL = "owd";
}
