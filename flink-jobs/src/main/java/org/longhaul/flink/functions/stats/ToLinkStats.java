package org.longhaul.flink.functions.stats;

import org.apache.flink.api.common.functions.MapFunction;
import org.longhaul.flink.records.ContractNames;
import org.longhaul.flink.records.Envelope;
import org.longhaul.flink.records.LatencySample;
import org.longhaul.flink.records.LinkStats;

/**
 * A finished window as a link_stats message; ts = window_end; no evidence → null. The delay slots
 * of the accumulator are the round trip (rtt_*), except for one-way measurements (protocol owd),
 * where they are the one-way delay (owd_*).
 */
public final class ToLinkStats implements MapFunction<WindowedStats, LinkStats> {
    private static final long serialVersionUID = 1L;

    @Override
    public LinkStats map(WindowedStats w) {
        return of(w);
    }

    public static LinkStats of(WindowedStats w) {
        String[] key = w.key().split("\\|", 3);
        LinkAccumulator a = w.accumulator();
        boolean tput = a.throughputCount > 0;
        boolean retx = a.retransmitSamples > 0;
        Double loss = lossPercent(a);
        boolean oneWay = LatencySample.PROTOCOL.equals(key[2]);
        Double delayMin = Double.isFinite(a.rttMin) ? a.rttMin : null;
        Double delayMean = a.rttCount > 0 ? a.rttSum / a.rttCount : null;
        Double delayMax = Double.isFinite(a.rttMax) ? a.rttMax : null;
        return new LinkStats(
                new Envelope(
                        LinkStats.SCHEMA,
                        ContractNames.VERSION_STATS,
                        key[0],
                        key[1],
                        LinkStats.PRODUCER,
                        w.windowEnd()),
                key[2],
                w.window(),
                w.windowStart(),
                w.windowEnd(),
                a.samples,
                a.runs,
                a.errors,
                tput ? a.throughputSum / a.throughputCount : null,
                tput ? clamp(a.throughput.quantile(0.5), a) : null,
                tput ? clamp(a.throughput.quantile(0.1), a) : null,
                tput ? clamp(a.throughput.quantile(0.9), a) : null,
                tput ? a.throughputMax : null,
                retx ? a.retransmits : null,
                retx && a.retransmitBytes > 0 ? a.retransmits / (a.retransmitBytes / 1e6) : null,
                loss == null ? null : Math.min(100.0, loss),
                a.lossPercentMax >= 0 ? a.lossPercentMax : null,
                a.jitterCount > 0 ? a.jitterSum / a.jitterCount : null,
                a.jitterMax >= 0 ? a.jitterMax : null,
                oneWay ? null : delayMin,
                oneWay ? null : delayMean,
                oneWay ? null : delayMax,
                oneWay ? delayMin : null,
                oneWay ? delayMean : null,
                oneWay ? delayMax : null,
                a.hopCount > 0 ? a.hopSum / a.hopCount : null,
                null,
                null,
                null,
                null,
                null);
    }

    /**
     * Lost over sent packets of the window; the mean of per-run percentages when counts are
     * missing.
     */
    static Double lossPercent(LinkAccumulator a) {
        if (a.sentPackets > 0) {
            return 100.0 * a.lostPackets / a.sentPackets;
        }
        if (a.lossPercentCount > 0) {
            return a.lossPercentSum / a.lossPercentCount;
        }
        return null;
    }

    /** Sketch estimates never leave the observed range. */
    private static double clamp(double v, LinkAccumulator a) {
        return Math.max(0.0, Math.min(v, a.throughputMax));
    }
}
