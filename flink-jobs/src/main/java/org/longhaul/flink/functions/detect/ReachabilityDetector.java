package org.longhaul.flink.functions.detect;

import java.time.Duration;
import org.apache.flink.util.Collector;
import org.longhaul.flink.functions.common.Fmt;
import org.longhaul.flink.functions.common.KeyedStateFunction;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.ThroughputSample;

/**
 * unreachable / reachable per link (key "src|dst") from throughput run summaries: after {@link
 * ReachParams#confirmRuns()} consecutive runs failing with a reachability error class the link is
 * unreachable (once); the next successful run makes it reachable again (same episode).
 */
public final class ReachabilityDetector
        extends KeyedStateFunction<ThroughputSample, Event, ReachState> {
    private static final long serialVersionUID = 1L;

    private final ReachParams p;

    public ReachabilityDetector(ReachParams params, Duration stateTtl) {
        super("reach", ReachState.class, "reach", stateTtl);
        this.p = params;
    }

    /**
     * +1 a run that reached its target, -1 a run that could not, 0 a run that says nothing about
     * it.
     */
    public static int verdict(ThroughputSample s) {
        if (s.succeeded()) {
            return 1;
        }
        return s.failed() && s.error().reachability() ? -1 : 0;
    }

    @Override
    public void processElement(ThroughputSample run, Context ctx, Collector<Event> out)
            throws Exception {
        int verdict = verdict(run);
        if (verdict == 0) {
            return;
        }
        cleanup.touch(ctx.timerService(), run.ts());
        ReachState s = stateOr(ReachState::new);
        if (verdict > 0) {
            if (s.down) {
                out.collect(reachable(run, s));
            }
            state.clear();
            return;
        }
        if (s.failures == 0) {
            s.firstFailureTs = run.ts();
        }
        s.failures++;
        s.errorClass = run.error().errorClass();
        s.errorMessage = run.error().message();
        if (!s.down && s.failures >= p.confirmRuns()) {
            s.down = true;
            s.episodeId =
                    EventKind.UNREACHABLE.wire()
                            + ":"
                            + run.src()
                            + "|"
                            + run.dst()
                            + "@"
                            + s.firstFailureTs;
            out.collect(unreachable(run, s));
        }
        state.update(s);
    }

    private static Event unreachable(ThroughputSample run, ReachState s) {
        return Event.builder(
                        EventKind.UNREACHABLE,
                        run.src(),
                        run.dst(),
                        Detectors.REACHABILITY,
                        run.ts())
                .severity("critical")
                .protocol(run.protocol())
                .episode(s.episodeId)
                .message(
                        String.format(
                                "%s unreachable from %s: %s in %d consecutive runs (%s)",
                                run.dst(), run.src(), s.errorClass, s.failures, s.errorMessage))
                .evidence("error_class", s.errorClass)
                .evidence("failed_runs", (long) s.failures)
                .evidence("first_failure_ts", s.firstFailureTs)
                .evidence("probe", run.probeId())
                .build();
    }

    private static Event reachable(ThroughputSample run, ReachState s) {
        double downFor = (run.ts() - s.firstFailureTs) / 1000.0;
        return Event.builder(
                        EventKind.REACHABLE, run.src(), run.dst(), Detectors.REACHABILITY, run.ts())
                .severity("info")
                .protocol(run.protocol())
                .episode(s.episodeId)
                .message(
                        String.format(
                                "%s reachable again from %s after %s and %d failed runs (%s)",
                                run.dst(),
                                run.src(),
                                Fmt.seconds(downFor),
                                s.failures,
                                s.errorClass))
                .evidence("error_class", s.errorClass)
                .evidence("failed_runs", (long) s.failures)
                .evidence("down_for_s", Fmt.round(downFor))
                .evidence("observed_bps", Fmt.round(run.bitsPerSecond()))
                .build();
    }
}
