package org.longhaul.flink.functions.stats;

import org.longhaul.flink.records.Links;

/**
 * What one raw sample contributes to the statistics of its link and protocol. Null numbers mean "no
 * evidence"; a sample may carry an RTT range (ping) or a single RTT (TCP interval). {@code
 * sourceTopic} is the raw topic the sample was read from (null for a {@link #closing} marker), so
 * that an observation too late for its minute is dead-lettered where its writer's other dead
 * letters go ({@link LateToDeadLetter}).
 */
public record Observation(
        String src,
        String dst,
        String protocol,
        long ts,
        int samples,
        int runs,
        int errors,
        Double throughputBps,
        Long bytes,
        Long retransmits,
        Long lostPackets,
        Long sentPackets,
        Double lossPercent,
        Double jitterMs,
        Double rttMinMs,
        Double rttMeanMs,
        Double rttMaxMs,
        Double hopCount,
        String sourceTopic) {

    /** The statistics key: "src|dst|protocol". */
    public String key() {
        return Links.key(src, dst, protocol);
    }

    /**
     * The marker {@link LinkClock} sends into the window of time {@code ts} of link {@code key}
     * ("src|dst|protocol") to close it: no sample, no run, no error, so it counts for nothing.
     */
    public static Observation closing(String key, long ts) {
        String[] k = key.split("\\|", 3);
        return new Observation(
                k[0], k[1], k[2], ts, 0, 0, 0, null, null, null, null, null, null, null, null, null,
                null, null, null);
    }

    /**
     * Whether this is a {@link #closing} marker: every observation of a sample counts a sample or a
     * run ({@link Observations}), a marker neither.
     */
    public boolean closes() {
        return samples == 0 && runs == 0;
    }
}
