package org.longhaul.flink.functions.detect;

import java.io.Serializable;
import java.util.Map;
import org.longhaul.flink.functions.common.Fmt;
import org.longhaul.flink.functions.common.RobustStats;
import org.longhaul.flink.records.Suspicion;
import org.longhaul.flink.records.SuspicionReason;
import org.longhaul.flink.records.ThroughputSample;

/**
 * Screening bursts (throughput_sample {@code screens}): short runs between a probe's full tests,
 * kept in the state of the series they screen with a baseline of their own, since a 2 s run is
 * mostly slow start and only comparable with other bursts. A burst never alerts: a low one (the
 * collapse rule, {@link CollapseParams#k()} and {@link CollapseParams#drop()}, against the bursts'
 * history) asks for a run of the screened probe, and counts as the first low run when that run is
 * low too; during a collapse a burst back near its baseline asks for the run that could end it, and
 * counts as the first run back. Low bursts never enter the history, nor any burst during a
 * collapse.
 */
public final class Screening implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final int NONE = 0;
    public static final int LOW = 1;
    public static final int BACK = 2;

    private final CollapseParams p;

    public Screening(CollapseParams params) {
        this.p = params;
    }

    /**
     * A backfilled burst: into the history while it has room, unless the history can judge it low.
     */
    CollapseState learn(CollapseState s, double x) {
        double[] h = history(s);
        if (!s.inEpisode
                && !(h.length >= p.minHistory() && ThroughputCollapseDetector.low(p, h, x))) {
            s.screenHistory = RobustStats.prepend(h, x, p.history());
        }
        return s;
    }

    /** A live burst: its verdict into s, and the suspicion it raises, or null. */
    Suspicion judge(CollapseState s, ThroughputSample run, double x) {
        double[] h = history(s);
        if (h.length < p.minHistory()) {
            s.screenHistory = RobustStats.append(h, x, p.history());
            s.screenVerdict = NONE;
            return null;
        }
        double median = RobustStats.median(h);
        if (s.inEpisode) {
            boolean back = ThroughputCollapseDetector.back(p, median, x);
            verdict(s, run, back ? BACK : NONE);
            return back
                    ? suspicion(
                            run,
                            SuspicionReason.THROUGHPUT_RECOVERING,
                            x,
                            median,
                            String.format(
                                    "a screening burst (probe %s) at %s, back near its own baseline of %s during a collapse: asking for the run of %s that could end it",
                                    run.probeId(), Fmt.bps(x), Fmt.bps(median), run.screens()))
                    : null;
        }
        if (!ThroughputCollapseDetector.low(p, h, x)) {
            s.screenHistory = RobustStats.append(h, x, p.history());
            verdict(s, run, NONE);
            return null;
        }
        verdict(s, run, LOW);
        return suspicion(
                run,
                SuspicionReason.THROUGHPUT_LOW,
                x,
                median,
                String.format(
                        "a screening burst (probe %s) at %s, %s below its own baseline of %s: asking for a run of %s, which raises the alarm if it is low too",
                        run.probeId(),
                        Fmt.bps(x),
                        Fmt.percent(100 * (1 - x / median)),
                        Fmt.bps(median),
                        run.screens()));
    }

    /**
     * Takes the latest burst's verdict for a run of the series: whether it was the one asked for.
     */
    static boolean take(CollapseState s, int verdict) {
        boolean said = s.screenVerdict == verdict;
        s.screenVerdict = NONE;
        return said;
    }

    private static void verdict(CollapseState s, ThroughputSample run, int verdict) {
        s.screenVerdict = verdict;
        s.screenTs = run.ts();
    }

    private static double[] history(CollapseState s) {
        return s.screenHistory == null ? new double[0] : s.screenHistory;
    }

    private static Suspicion suspicion(
            ThroughputSample run,
            SuspicionReason reason,
            double x,
            double baseline,
            String message) {
        Map<String, Object> ev = ThroughputCollapseDetector.evidence(x, baseline);
        ev.put("screening_probe", run.probeId());
        return Suspicion.of(run.src(), run.dst(), run.screens(), run.ts(), reason, message, ev);
    }
}
