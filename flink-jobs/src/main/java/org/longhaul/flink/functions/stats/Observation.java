package org.longhaul.flink.functions.stats;

import org.longhaul.flink.records.Links;

/**
 * What one raw sample contributes to the statistics of its link and protocol. Null numbers mean "no
 * evidence"; a sample may carry an RTT range (ping) or a single RTT (TCP interval).
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
        Double hopCount) {

    /** The statistics key: "src|dst|protocol". */
    public String key() {
        return Links.key(src, dst, protocol);
    }
}
