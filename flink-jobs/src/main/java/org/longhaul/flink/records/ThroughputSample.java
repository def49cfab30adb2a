package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One throughput record (throughput_sample.v2, and v1 without its new fields): a per-interval row
 * or the summary of a run. Nullable numbers are boxed; names follow the schema in snake_case
 * through {@link Json}.
 */
public record ThroughputSample(
        @JsonUnwrapped Envelope envelope,
        String runId,
        String record,
        String tool,
        String toolVersion,
        String target,
        Integer port,
        String protocol,
        String direction,
        Integer streams,
        Long windowBytes,
        String congestion,
        Double durationS,
        Double startS,
        Double endS,
        Boolean omitted,
        Long bytes,
        Double bitsPerSecond,
        Long sentBytes,
        Double sentBitsPerSecond,
        Long receivedBytes,
        Double receivedBitsPerSecond,
        Long retransmits,
        Long sndCwndBytes,
        Double rttMs,
        Double rttvarMs,
        Double minRttMs,
        Double maxRttMs,
        Double jitterMs,
        Long lostPackets,
        Long packets,
        Double lossPercent,
        Long outOfOrder,
        Long sndWndBytes,
        String screens,
        String requestId,
        RunError error)
        implements HasSrc {

    public static final String SCHEMA = ContractNames.SCHEMA_RAW_THROUGHPUT;

    public boolean summary() {
        return "summary".equals(record);
    }

    public boolean interval() {
        return "interval".equals(record);
    }

    /** A summary of a run that ran and measured (no error). */
    public boolean succeeded() {
        return summary() && error == null && bitsPerSecond != null;
    }

    /** A summary of a run that was attempted and failed. */
    public boolean failed() {
        return summary() && error != null && !error.notStarted();
    }

    /** Interval rows excluded by the tool's omit period (TCP slow start) do not count. */
    public boolean countedInterval() {
        return interval() && !Boolean.TRUE.equals(omitted) && bitsPerSecond != null;
    }

    public boolean tcp() {
        return "tcp".equals(protocol);
    }

    public boolean reverse() {
        return "reverse".equals(direction);
    }

    /**
     * A screening burst's run (schema field {@code screens}): judged against its own baseline, for
     * the probe it screens.
     */
    public boolean screening() {
        return screens != null;
    }

    /**
     * The throughput series the run belongs to: its probe, or for a screening burst the probe it
     * screens (the collapse detector keeps the burst's baseline beside that probe's).
     */
    public String series() {
        return screening() ? screens : probeId();
    }
}
