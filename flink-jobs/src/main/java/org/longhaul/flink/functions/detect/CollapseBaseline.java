package org.longhaul.flink.functions.detect;

import org.longhaul.flink.functions.common.RobustStats;
import org.longhaul.flink.records.LinkStats;
import org.longhaul.flink.records.ThroughputSample;

/**
 * The baseline {@link ThroughputCollapseDetector} holds for one series, as a link_stats message of
 * window {@link LinkStats#WINDOW_BASELINE}. The detector publishes one after every live run it
 * judged or learned from, so the mesh matrix, the link detail and the report divide by the baseline
 * the detector judges against rather than by statistics of their own (an hourly median once told
 * "learning" for links the detector had already judged and paged on).
 *
 * <p>The baseline is the one the next run is judged against: the median and robust σ of the
 * history, ready once it holds {@link CollapseParams#minHistory()} runs; during a collapse, the
 * baseline frozen when the episode opened (what its runs are judged against, and what the collapse
 * event's evidence names). {@code samples} and {@code runs} are the runs of the history.
 */
final class CollapseBaseline {
    private CollapseBaseline() {}

    /** The baseline of {@code run}'s series in state {@code s}, after the detector took the run. */
    static LinkStats of(ThroughputSample run, CollapseState s, CollapseParams p) {
        double median = s.inEpisode ? s.baseline : RobustStats.median(s.history);
        double spread = s.inEpisode ? s.baselineSigma : RobustStats.sigma(s.history);
        boolean ready = s.inEpisode || s.history.length >= p.minHistory();
        return LinkStats.baseline(
                run.src(),
                run.dst(),
                Detectors.COLLAPSE,
                run.ts(),
                run.protocol(),
                s.history.length,
                run.series(),
                median,
                spread,
                p.minHistory(),
                ready);
    }
}
