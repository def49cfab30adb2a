package org.longhaul.flink.functions.detect;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.longhaul.flink.functions.History;
import org.longhaul.flink.functions.common.CleanupTimer;
import org.longhaul.flink.functions.common.Fmt;
import org.longhaul.flink.functions.common.RobustStats;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.LinkStats;
import org.longhaul.flink.records.Suspicion;
import org.longhaul.flink.records.SuspicionReason;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.state.OneWriteType;

/**
 * Throughput collapse and recovery of one series (key "src|dst|probe_id": each probe config has its
 * own baseline) from successful run summaries, relative to the series' own history, so a 20 Mbit/s
 * and a 10 Gbit/s link are judged alike. See {@link CollapseParams} for the rule; low runs never
 * enter the history, one alert per episode, a recovery event closes it (same episode_id). State is
 * dropped after the state TTL without runs.
 *
 * <p>Backfilled runs ({@link History}, {@code longhaul import}) only fill the history, never judged
 * and never alerting: {@link #learn}.
 *
 * <p>A run that is low but does not yet raise the alarm, and a run back at the baseline during an
 * episode that does not yet end it, are suspicions on the side output {@link #SUSPECT}: the
 * confirmation planner asks for the run that decides now rather than at the next slot.
 *
 * <p>A catastrophic run ({@link CollapseParams#catastrophicDrop()} below the baseline) pages at
 * once unless {@link CollapseParams#catastrophicWait()} is set (confirmation probes on): it is then
 * a suspicion like any low run, the run it asks for pages (or clears it) by the usual rule, and an
 * event-time timer pages it alone when no run has come by the wait's end.
 *
 * <p>After each live run of its own (not a screening burst's), the series' baseline goes to the
 * side output {@link #BASELINE} as link_stats ({@link CollapseBaseline}): the one baseline every
 * reader shows. Backfilled runs publish none: they have no place in event time, and the first live
 * run, judged against what they taught, publishes the baseline they made.
 */
public final class ThroughputCollapseDetector
        extends KeyedProcessFunction<String, ThroughputSample, Event> {
    private static final long serialVersionUID = 1L;

    public static final OutputTag<Suspicion> SUSPECT =
            new OutputTag<>("collapse-suspect", TypeInformation.of(Suspicion.class));

    /** The series' baseline after each live run (link_stats window baseline). */
    public static final OutputTag<LinkStats> BASELINE =
            new OutputTag<>("collapse-baseline", TypeInformation.of(LinkStats.class));

    private final CollapseParams p;
    private final Screening screening;
    private final Duration ttl;
    private transient ValueState<CollapseState> state;
    private transient CleanupTimer cleanup;

    public ThroughputCollapseDetector(CollapseParams params, Duration stateTtl) {
        this.p = params;
        this.screening = new Screening(params);
        this.ttl = stateTtl;
    }

    @Override
    public void open(OpenContext context) {
        state =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "collapse", OneWriteType.of(CollapseState.class)));
        cleanup = new CleanupTimer(getRuntimeContext(), "collapse", ttl);
    }

    @Override
    public void processElement(ThroughputSample run, Context ctx, Collector<Event> out)
            throws Exception {
        if (!run.succeeded()) {
            return;
        }
        CollapseState s = state.value() == null ? new CollapseState() : state.value();
        double x = run.bitsPerSecond();
        if (History.is(ctx.timestamp())) {
            // a backfilled run: the key lives a TTL from the newer of its ts and the live clock
            cleanup.touch(
                    ctx.timerService(), Math.max(run.ts(), ctx.timerService().currentWatermark()));
            state.update(run.screening() ? screening.learn(s, x) : learn(s, x));
            return;
        }
        cleanup.touch(ctx.timerService(), run.ts());
        Consumer<Suspicion> suspect = v -> ctx.output(SUSPECT, v);
        if (run.screening()) {
            Suspicion v = screening.judge(s, run, x);
            if (v != null) {
                suspect.accept(v);
            }
        } else if (s.inEpisode) {
            duringEpisode(s, run, x, out, suspect);
        } else if (s.history.length < p.minHistory()) {
            s.history = RobustStats.append(s.history, x, p.history());
        } else {
            judge(s, run, x, out, suspect, t -> ctx.timerService().registerEventTimeTimer(t));
        }
        state.update(s);
        if (!run.screening()) {
            ctx.output(BASELINE, CollapseBaseline.of(run, s, p));
        }
    }

    /**
     * A backfilled run enters the history while it has room ({@link RobustStats#prepend}: the
     * import sends a link's runs newest first), unless the history is long enough to judge it and
     * it would be low: an old collapse must not drag the baseline down. Nothing is emitted, and an
     * open episode is left alone.
     */
    CollapseState learn(CollapseState s, double x) {
        if (s.inEpisode) {
            return s;
        }
        if (s.history.length >= p.minHistory() && low(p, s.history, x)) {
            return s;
        }
        s.history = RobustStats.prepend(s.history, x, p.history());
        return s;
    }

    /** Whether x is back near a baseline during a collapse: within half the drop of it. */
    static boolean back(CollapseParams p, double baseline, double x) {
        return x >= (1 - p.drop() / 2) * baseline;
    }

    /** Whether x is low against the history: k sigma and the drop below its median. */
    static boolean low(CollapseParams p, double[] history, double x) {
        double median = RobustStats.median(history);
        return x < median - p.k() * RobustStats.sigma(history) && x <= (1 - p.drop()) * median;
    }

    private void judge(
            CollapseState s,
            ThroughputSample run,
            double x,
            Collector<Event> out,
            Consumer<Suspicion> suspect,
            LongConsumer awaitTimer) {
        double median = RobustStats.median(s.history);
        double sigma = RobustStats.sigma(s.history);
        boolean screenedLow = Screening.take(s, Screening.LOW);
        if (!low(p, s.history, x)) {
            s.history = RobustStats.append(s.history, x, p.history());
            s.lowRuns = 0;
            s.lowSum = 0;
            s.screenCounted = false;
            s.awaitUntil =
                    0; // a catastrophic run waiting for this one is cleared: its timer is stale
            return;
        }
        if (s.lowRuns == 0) {
            // a low screening burst just before this run is where the drop was first seen
            s.screenCounted = screenedLow;
            s.firstLowTs = screenedLow ? s.screenTs : run.ts();
        }
        s.lowRuns++;
        s.lowSum += x;
        boolean catastrophic = x <= (1 - p.catastrophicDrop()) * median;
        boolean waits = catastrophic && !p.catastrophicWait().isZero();
        if (s.lowRuns + (s.screenCounted ? 1 : 0) >= p.confirmRuns() || (catastrophic && !waits)) {
            openEpisode(s, median, sigma);
            out.collect(
                    collapse(
                            run.src(),
                            run.dst(),
                            run.probeId(),
                            run.protocol(),
                            run.ts(),
                            s,
                            s.lowSum / s.lowRuns,
                            ""));
            s.screenCounted = false;
        } else {
            String progress;
            if (waits && s.awaitUntil == 0) {
                s.awaitUntil = run.ts() + p.catastrophicWait().toMillis();
                s.awaitProtocol = run.protocol();
                awaitTimer.accept(s.awaitUntil);
                progress =
                        String.format(
                                "confirming before paging (alone by %s)",
                                Fmt.seconds(p.catastrophicWait().toSeconds()));
            } else {
                progress =
                        String.format(
                                "%d of the %d low runs that make a collapse",
                                s.lowRuns, p.confirmRuns());
            }
            suspect.accept(
                    suspicion(
                            run,
                            SuspicionReason.THROUGHPUT_LOW,
                            x,
                            median,
                            String.format(
                                    "a run at %s, %s below the baseline of %s: %s",
                                    Fmt.bps(x),
                                    Fmt.percent(100 * (1 - x / median)),
                                    Fmt.bps(median),
                                    progress)));
        }
    }

    /** The episode opens with the baseline the low runs were judged against, frozen. */
    private static void openEpisode(CollapseState s, double median, double sigma) {
        s.inEpisode = true;
        s.episodeStart = s.firstLowTs;
        s.baseline = median;
        s.baselineSigma = sigma;
        s.episodeRuns = s.lowRuns;
        s.recovering = new double[0];
        s.awaitUntil = 0;
        s.awaitProtocol = null;
    }

    private static Suspicion suspicion(
            ThroughputSample run,
            SuspicionReason reason,
            double x,
            double baseline,
            String message) {
        return Suspicion.ofRun(run, reason, message, evidence(x, baseline));
    }

    /** A suspicion's evidence of a run's rate against its link's baseline. */
    static Map<String, Object> evidence(double x, double baseline) {
        Map<String, Object> ev = new LinkedHashMap<>();
        ev.put("observed_bps", Fmt.round(x));
        ev.put("baseline_bps", Fmt.round(baseline));
        return ev;
    }

    private void duringEpisode(
            CollapseState s,
            ThroughputSample run,
            double x,
            Collector<Event> out,
            Consumer<Suspicion> suspect) {
        boolean screenedBack = Screening.take(s, Screening.BACK);
        boolean recovered = back(p, s.baseline, x);
        if (!recovered) {
            s.episodeRuns++;
            s.recovering = new double[0];
            s.screenCounted = false;
            return;
        }
        if (s.recovering.length == 0) {
            s.screenCounted = screenedBack;
        }
        s.recovering = RobustStats.append(s.recovering, x, p.recoveryRuns());
        if (s.recovering.length + (s.screenCounted ? 1 : 0) < p.recoveryRuns()) {
            suspect.accept(
                    suspicion(
                            run,
                            SuspicionReason.THROUGHPUT_RECOVERING,
                            x,
                            s.baseline,
                            String.format(
                                    "a run at %s, back near the baseline of %s during a collapse: %d of the %d runs that end it",
                                    Fmt.bps(x),
                                    Fmt.bps(s.baseline),
                                    s.recovering.length,
                                    p.recoveryRuns())));
            return;
        }
        out.collect(recovery(run, s, x));
        for (double r : s.recovering) {
            s.history = RobustStats.append(s.history, r, p.history());
        }
        s.inEpisode = false;
        s.episodeId = null;
        s.lowRuns = 0;
        s.lowSum = 0;
        s.recovering = new double[0];
        s.screenCounted = false;
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Event> out) throws Exception {
        if (cleanup.expired(ctx.timerService(), timestamp)) {
            state.clear();
            cleanup.clear();
            return;
        }
        CollapseState s = state.value();
        if (s == null || s.awaitUntil != timestamp || s.inEpisode || s.lowRuns == 0) {
            return; // the confirming run came (and paged or cleared it) before the wait's end
        }
        // no run came within the wait: the catastrophic run pages alone
        String[] key = ctx.getCurrentKey().split("\\|", 3);
        String protocol = s.awaitProtocol;
        openEpisode(s, RobustStats.median(s.history), RobustStats.sigma(s.history));
        out.collect(
                collapse(
                        key[0],
                        key[1],
                        key[2],
                        protocol,
                        timestamp,
                        s,
                        s.lowSum / s.lowRuns,
                        String.format(
                                ", no confirming run within %s",
                                Fmt.seconds(p.catastrophicWait().toSeconds()))));
        s.screenCounted = false;
        state.update(s);
    }

    private Event collapse(
            String src,
            String dst,
            String probeId,
            String protocol,
            long ts,
            CollapseState s,
            double observed,
            String why) {
        double dropPct = 100 * (1 - observed / s.baseline);
        boolean catastrophic = dropPct >= 100 * p.catastrophicDrop();
        s.episodeId = "collapse:" + src + "|" + dst + "|" + probeId + "@" + s.firstLowTs;
        return Event.builder(EventKind.THROUGHPUT_COLLAPSE, src, dst, Detectors.COLLAPSE, ts)
                .severity(catastrophic ? "critical" : "warning")
                .protocol(protocol)
                .episode(s.episodeId)
                .message(
                        String.format(
                                "throughput %s is %s below the link's baseline of %s (%d run%s, probe %s%s%s)",
                                Fmt.bps(observed),
                                Fmt.percent(dropPct),
                                Fmt.bps(s.baseline),
                                s.lowRuns,
                                s.lowRuns == 1 ? "" : "s",
                                probeId,
                                s.screenCounted ? ", after a low screening burst" : "",
                                why))
                .evidence("baseline_bps", Fmt.round(s.baseline))
                .evidence("baseline_stddev_bps", Fmt.round(s.baselineSigma))
                .evidence("observed_bps", Fmt.round(observed))
                .evidence("drop_percent", Fmt.round(dropPct))
                .evidence("samples", (long) s.lowRuns)
                .evidence("screening_bursts", s.screenCounted ? 1L : 0L)
                .evidence("history_runs", (long) s.history.length)
                .evidence("probe", probeId)
                .build();
    }

    private Event recovery(ThroughputSample run, CollapseState s, double observed) {
        double lasted = (run.ts() - s.episodeStart) / 1000.0;
        return Event.builder(
                        EventKind.THROUGHPUT_RECOVERY,
                        run.src(),
                        run.dst(),
                        Detectors.COLLAPSE,
                        run.ts())
                .severity("info")
                .protocol(run.protocol())
                .episode(s.episodeId)
                .message(
                        String.format(
                                "throughput back to %s (baseline %s) after %s and %d low run%s (probe %s)",
                                Fmt.bps(observed),
                                Fmt.bps(s.baseline),
                                Fmt.seconds(lasted),
                                s.episodeRuns,
                                s.episodeRuns == 1 ? "" : "s",
                                run.probeId()))
                .evidence("baseline_bps", Fmt.round(s.baseline))
                .evidence("observed_bps", Fmt.round(observed))
                .evidence("low_runs", (long) s.episodeRuns)
                .evidence("duration_s", Fmt.round(lasted))
                .evidence("probe", run.probeId())
                .build();
    }
}
