package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * Statistics of one link and protocol over a tumbling event-time window (link_stats.v3; v2 adds the
 * one-way delay of protocol owd). Numbers the window has no evidence for are null.
 *
 * <p>v3 adds window {@link #WINDOW_BASELINE}: the throughput collapse detector's baseline of one
 * series after a run ({@code functions/detect/CollapseBaseline}), published on the same topic so
 * that the dashboards and the report show the baseline the detector judges against. Its {@code
 * series}, {@code baseline*} fields are null on every other window.
 */
public record LinkStats(
        @JsonUnwrapped Envelope envelope,
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
        Double hopCount,
        String series,
        Double baselineBps,
        Double baselineSpreadBps,
        Integer baselineMinRuns,
        Boolean baselineReady)
        implements Enveloped {

    public static final String SCHEMA = ContractNames.SCHEMA_STATS;

    /** probe_id of every window's statistics: the producing job (a baseline's is its detector). */
    public static final String PRODUCER = "link-stats";

    /** The window of the collapse detector's baselines (link_stats.v3). */
    public static final String WINDOW_BASELINE = "baseline";

    /**
     * A baseline of window {@link #WINDOW_BASELINE} at {@code ts}: the one time of its window, no
     * window statistics; {@code samples} and {@code runs} are the runs the baseline holds.
     */
    public static LinkStats baseline(
            String src,
            String dst,
            String producer,
            long ts,
            String protocol,
            long runs,
            String series,
            double bps,
            double spreadBps,
            int minRuns,
            boolean ready) {
        return new LinkStats(
                new Envelope(SCHEMA, ContractNames.VERSION_STATS, src, dst, producer, ts),
                protocol,
                WINDOW_BASELINE,
                ts,
                ts,
                runs,
                runs,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                series,
                bps,
                spreadBps,
                minRuns,
                ready);
    }
}
