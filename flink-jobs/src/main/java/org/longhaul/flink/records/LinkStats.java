package org.longhaul.flink.records;

/**
 * Statistics of one link and protocol over a tumbling event-time window (link_stats.v2; v2 adds the
 * one-way delay of protocol owd). Numbers the window has no evidence for are null.
 */
public record LinkStats(
        String schema,
        int version,
        String src,
        String dst,
        String probeId,
        long ts,
        String protocol,
        String window,
        long windowStart,
        long windowEnd,
        long samples,
        Long runs,
        Long errors,
        Double throughputMeanBps,
        Double throughputMedianBps,
        Double throughputP10Bps,
        Double throughputP90Bps,
        Double throughputMaxBps,
        Long retransmits,
        Double retransmitsPerMb,
        Double lossPercent,
        Double lossPercentMax,
        Double jitterMs,
        Double jitterMsMax,
        Double rttMinMs,
        Double rttMeanMs,
        Double rttMaxMs,
        Double owdMinMs,
        Double owdMeanMs,
        Double owdMaxMs,
        Double hopCount) {

    public static final String SCHEMA = ContractNames.SCHEMA_STATS;

    /** probe_id of every statistics message: the producing job. */
    public static final String PRODUCER = "link-stats";

    public String link() {
        return Links.key(src, dst);
    }
}
