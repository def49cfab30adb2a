package org.longhaul.flink.functions.confirm;

import java.time.Duration;
import java.util.Arrays;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.longhaul.flink.functions.common.KeyedStateFunction;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.records.Suspicion;
import org.longhaul.flink.records.SuspicionReason;

/**
 * Per link (key "src|dst"): turns suspicions into probe requests for the link's throughput probe
 * (the one a suspicion names, else the one the link last ran; a link without one is not probed).
 * While a request is on its way (until a run of its probe comes, or it expires) further suspicions
 * ask nothing. At most {@link ConfirmParams#linkMax()} requests in any {@link
 * ConfirmParams#linkWindow()}: one more is reported unserved ({@link Unserved}, side output {@link
 * #UNSERVED}). The host's and the mesh's budgets come after ({@link RequestBudget}). While the
 * link's collapse is open, only a run back at the baseline asks for another ({@link #worthAsking}).
 * A suspicion that comes before any run has named the link's probe waits for one ({@link #hold}).
 */
public final class ConfirmationPlanner
        extends KeyedStateFunction<PlannerInput, ProbeRequest, PlannerState> {
    private static final long serialVersionUID = 1L;

    public static final OutputTag<Event> UNSERVED =
            new OutputTag<>("confirm-unserved-link", TypeInformation.of(Event.class));

    private final ConfirmParams p;

    public ConfirmationPlanner(ConfirmParams params, Duration stateTtl) {
        super("confirm-plan", PlannerState.class, "confirm-plan", stateTtl);
        this.p = params;
    }

    @Override
    public void processElement(PlannerInput in, Context ctx, Collector<ProbeRequest> out)
            throws Exception {
        PlannerState s = stateOr(PlannerState::new);
        cleanup.touch(ctx.timerService(), in.ts());
        if (in.run() != null) {
            seen(s, in.run());
            Suspicion held =
                    release(
                            s,
                            in.run(),
                            ctx.timerService().currentWatermark(),
                            p.requestTtl().toMillis());
            if (held != null) {
                suspect(s, held, ctx, out);
            }
        } else if (in.episode() != null) {
            s.collapsed = in.episode().open();
        } else {
            answers(s, in.suspicion());
            suspect(s, in.suspicion(), ctx, out);
        }
        state.update(s);
    }

    /** A suspicion asks for a run, is held for the link's probe, or is turned down. */
    private void suspect(PlannerState s, Suspicion x, Context ctx, Collector<ProbeRequest> out) {
        if (!p.enabled() || !worthAsking(s, x) || hold(s, x, p.requestTtl().toMillis())) {
            return;
        }
        ProbeRequest r = plan(s, x);
        if (r != null) {
            out.collect(r);
        } else if (s.pendingId == null || x.ts() >= s.pendingExpires) {
            overBudget(s, x, ctx);
        }
    }

    /**
     * Holds a suspicion that names no probe while no run of the link has named one, and says so:
     * the planner's inputs come from several topics, read at their own pace (a source's fetch waits
     * up to half a second, a backlog is read faster on one topic than another), so the run that
     * names the probe may be earlier in event time and still on its way. The first such suspicion
     * is kept, until it expires (ttl) and a later one takes its place.
     */
    static boolean hold(PlannerState s, Suspicion x, long ttl) {
        if (x.probeId() != null || s.probeId != null) {
            return false;
        }
        if (s.held == null || x.ts() >= Json.read(s.held, Suspicion.class).ts() + ttl) {
            s.held = Json.write(x);
        }
        return true;
    }

    /**
     * The held suspicion a run of the link releases, or null. Once a run has named the probe the
     * suspicion is no longer held; it is asked for if it is at or after the run in event time and
     * not expired at the watermark. A run after it measured the link after what it suspects, and
     * answers it.
     */
    static Suspicion release(PlannerState s, RunSeen r, long watermark, long ttl) {
        if (s.held == null || s.probeId == null) {
            return null;
        }
        Suspicion x = Json.read(s.held, Suspicion.class);
        s.held = null;
        return r.ts() <= x.ts() && watermark < x.ts() + ttl ? x : null;
    }

    /**
     * During an open collapse a cheap signal (a route change, loss, an RTT shift, a tuning change)
     * asks for nothing: the alert is out, and the next run, scheduled or asked for by a recovering
     * one, tells when it ends.
     */
    static boolean worthAsking(PlannerState s, Suspicion x) {
        return !s.collapsed || SuspicionReason.THROUGHPUT_RECOVERING.wire().equals(x.reason());
    }

    /**
     * A run of the link: its probe is the one to run next time (a screening burst's is not: it is
     * the probe it screens that confirms); a run of the pending request's probe answers it.
     */
    static void seen(PlannerState s, RunSeen r) {
        if (r.tcp() && !r.screening() && !r.notStarted()) {
            s.probeId = r.probeId();
        }
        seen(s, r.probeId(), r.ts(), r.requestId());
    }

    /** A run of probe at ts (answering requestId, or null) answers the pending request. */
    private static void seen(PlannerState s, String probe, long ts, String requestId) {
        if (s.pendingId != null
                && (s.pendingId.equals(requestId)
                        || ts >= s.pendingTs && probe.equals(s.pendingProbe))) {
            s.pendingId = null;
        }
    }

    /**
     * A run's suspicion about itself answers the pending request as its summary does: the two take
     * different paths here, and a low run that does not yet make a collapse must be able to ask for
     * the run that does, whichever of them comes first.
     */
    static void answers(PlannerState s, Suspicion x) {
        if (x.byRun()) {
            seen(s, x.probeId(), x.ts(), null);
        }
    }

    /**
     * The request a suspicion makes, or null: nothing to run, one on its way, or the link's budget
     * spent.
     */
    ProbeRequest plan(PlannerState s, Suspicion x) {
        String probe = x.probeId() != null ? x.probeId() : s.probeId;
        if (probe == null) {
            return null;
        }
        if (s.pendingId != null && x.ts() < s.pendingExpires) {
            return null;
        }
        s.requested = recent(s.requested, x.ts(), p.linkWindow().toMillis());
        if (s.requested.length >= p.linkMax()) {
            return null;
        }
        long expires = x.ts() + p.requestTtl().toMillis();
        ProbeRequest r =
                ProbeRequest.of(
                        x.src(),
                        x.dst(),
                        probe,
                        x.ts(),
                        x.reason(),
                        x.message(),
                        expires,
                        x.evidence());
        s.requested = append(s.requested, x.ts());
        s.pendingId = r.requestId();
        s.pendingProbe = probe;
        s.pendingTs = x.ts();
        s.pendingExpires = expires;
        return r;
    }

    /** Reports a suspicion the link's spent budget turned down: the first of each budget window. */
    private void overBudget(PlannerState s, Suspicion x, Context ctx) {
        if ((x.probeId() != null ? x.probeId() : s.probeId) == null
                || s.requested.length < p.linkMax()
                || s.reportedSpent >= s.requested[0]) {
            return;
        }
        s.reportedSpent = x.ts();
        ctx.output(UNSERVED, Unserved.budget(x, "link", p.linkMax(), p.linkWindow()));
    }

    /** The times within window before now, oldest first. */
    static long[] recent(long[] times, long now, long window) {
        return Arrays.stream(times).filter(t -> now - t < window).toArray();
    }

    static long[] append(long[] times, long t) {
        long[] out = Arrays.copyOf(times, times.length + 1);
        out[times.length] = t;
        return out;
    }
}
