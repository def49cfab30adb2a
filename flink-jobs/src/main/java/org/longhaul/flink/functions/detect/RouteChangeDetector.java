package org.longhaul.flink.functions.detect;

import java.time.Duration;
import java.util.List;
import org.apache.flink.util.Collector;
import org.longhaul.flink.functions.common.Fmt;
import org.longhaul.flink.functions.common.KeyedStateFunction;
import org.longhaul.flink.records.ChangedHop;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.PathSample;

/**
 * route_change per link (key "src|dst") from traceroute runs. A run that agrees with the dominant
 * path at every hop where both have an answer (address sets intersect; `*` agrees with anything) is
 * on it and teaches it new ECMP siblings. Runs off it form a candidate; if a run on the dominant
 * path comes before the candidate persists, the candidate was load balancing or a blip and its
 * addresses join the dominant model. After {@link RouteParams#persistRuns()} consecutive runs off a
 * path that carried ≥ {@link RouteParams#dominantShare()} of the recent runs: ONE event naming the
 * changed hops, and the candidate becomes the dominant path. A streak before the path has {@link
 * RouteParams#minRuns()} runs joins it instead: a path learnt from fewer runs has not shown all its
 * ECMP siblings yet; so does a sibling of the same length and delay ({@link SiblingRtt}), whose
 * streak may wait a few more runs for its delay to be clear.
 */
public final class RouteChangeDetector extends KeyedStateFunction<PathSample, Event, RouteState> {
    private static final long serialVersionUID = 1L;

    private final RouteParams p;

    public RouteChangeDetector(RouteParams params, Duration stateTtl) {
        super("route", RouteState.class, "route", stateTtl);
        this.p = params;
    }

    @Override
    public void processElement(PathSample sample, Context ctx, Collector<Event> out)
            throws Exception {
        if (sample.error() != null || sample.hops() == null) {
            return;
        }
        PathShape run = PathShape.of(sample);
        if (!run.measured()) {
            return;
        }
        cleanup.touch(ctx.timerService(), sample.ts());
        RouteState s = stateOr(RouteState::new);
        if (s.dominant == null) {
            s.dominant = PathModel.of(run, p.maxAddrsPerHop());
            s.push(true, p.recentRuns());
        } else if (s.dominant.differences(run).isEmpty()) {
            s.dominant.absorb(run, p.maxAddrsPerHop());
            if (s.candidate != null) {
                s.dominant.absorb(s.candidate, p.maxAddrsPerHop());
                s.candidate = null;
                s.candidateRuns = 0;
            }
            s.push(true, p.recentRuns());
        } else {
            offDominant(s, run, sample, out);
        }
        state.update(s);
    }

    private void offDominant(RouteState s, PathShape run, PathSample sample, Collector<Event> out) {
        if (s.candidate == null) {
            s.candidate = PathModel.of(run, p.maxAddrsPerHop());
        } else {
            s.candidate.absorb(run, p.maxAddrsPerHop());
        }
        s.candidateRuns++;
        s.push(false, p.recentRuns());
        if (s.candidateRuns < p.persistRuns()) {
            return;
        }
        SiblingRtt.Verdict verdict =
                s.runsBeforeStreak() < p.minRuns()
                        ? SiblingRtt.Verdict.SIBLING
                        : sibling(s.dominant, s.candidate);
        if (verdict == SiblingRtt.Verdict.UNDECIDED) {
            return; // the streak's next run decides
        }
        if (verdict == SiblingRtt.Verdict.SIBLING) {
            // still learning, or a sibling of equal length and delay: the path's own variety
            // (an ECMP sibling three runs running), not a change from it; replacing the model
            // would forget the siblings learnt so far and report their next streak
            s.dominant.absorb(s.candidate, p.maxAddrsPerHop());
            s.candidate = null;
            s.candidateRuns = 0;
            return;
        }
        double share = s.dominantShareBeforeStreak();
        if (share >= p.dominantShare()) {
            out.collect(routeChange(sample, s, share));
        }
        s.dominant = s.candidate;
        s.candidate = null;
        s.recent = (1L << s.candidateRuns) - 1;
        s.recentCount = s.candidateRuns;
        s.candidateRuns = 0;
    }

    /**
     * A candidate as long as the dominant path, differing only at hops both answered, whose delay
     * is the dominant path's ({@link SiblingRtt}, {@link RouteParams#balancedRtt}): a diamond of
     * siblings (the testbed's ECMP at hops 2-3, 191 ms either way), not a route change (the flip of
     * dst-b: 160 → 230 ms). A move onto another carrier of the same delay is missed by this: its
     * effect, if any, is the collapse or loss detectors'.
     */
    private SiblingRtt.Verdict sibling(PathModel dominant, PathModel candidate) {
        if (dominant.length() != candidate.length()
                || dominant.reachedMax != candidate.reachedMax) {
            return SiblingRtt.Verdict.CHANGE;
        }
        for (PathModel.ChangedHopRef h : dominant.differences(candidate)) {
            if ("*".equals(h.before())
                    || "*".equals(h.after())
                    || h.before() == null
                    || h.after() == null) {
                return SiblingRtt.Verdict.CHANGE;
            }
        }
        return SiblingRtt.judge(dominant, candidate, p);
    }

    private Event routeChange(PathSample at, RouteState s, double share) {
        List<ChangedHop> changed =
                s.dominant.differences(s.candidate).stream()
                        .map(h -> new ChangedHop(h.ttl(), h.before(), h.after()))
                        .toList();
        String where =
                changed.isEmpty()
                        ? "in hop count"
                        : changed.size() == 1
                                ? "at hop " + changed.get(0).ttl()
                                : "at hops "
                                        + changed.get(0).ttl()
                                        + "-"
                                        + changed.get(changed.size() - 1).ttl();
        String first =
                changed.isEmpty()
                        ? ""
                        : String.format(
                                " (%s → %s)", changed.get(0).before(), changed.get(0).after());
        var e =
                Event.builder(EventKind.ROUTE_CHANGE, at.src(), at.dst(), Detectors.ROUTE, at.ts())
                        .severity("warning")
                        .protocol("path")
                        .route(s.dominant.representatives(), s.candidate.representatives(), changed)
                        .message(
                                String.format(
                                        "dominant path changed %s%s; RTT %s → %s (%d runs on the new path)",
                                        where,
                                        first,
                                        rtt(s.dominant),
                                        rtt(s.candidate),
                                        s.candidateRuns))
                        .evidence("rtt_before_ms", Fmt.round(s.dominant.delayMs()))
                        .evidence("rtt_after_ms", Fmt.round(s.candidate.delayMs()))
                        .evidence("runs_on_new_path", (long) s.candidateRuns)
                        .evidence("dominant_share_percent", Fmt.round(100 * share))
                        .evidence("hops_before", (long) s.dominant.length())
                        .evidence("hops_after", (long) s.candidate.length());
        return e.build();
    }

    /** A model's delay in the event: the lower quartile of its latest runs' RTTs. */
    private static String rtt(PathModel m) {
        double ms = m.delayMs();
        return Double.isNaN(ms) ? "unknown" : Fmt.ms(ms);
    }
}
