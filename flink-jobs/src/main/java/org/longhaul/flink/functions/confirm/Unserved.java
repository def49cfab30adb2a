package org.longhaul.flink.functions.confirm;

import java.time.Duration;
import org.longhaul.flink.functions.common.Fmt;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.records.Suspicion;

/** The probe_request_unserved events: a confirmation not asked for, or asked for and not run. */
public final class Unserved {
    /** probe_id of the events the confirmation functions raise. */
    public static final String DETECTOR = "confirmation";

    private Unserved() {}

    /** A suspicion the budget named (link, host or mesh) had no room for. */
    public static Event budget(Suspicion x, String budget, int max, Duration window) {
        return Event.builder(EventKind.PROBE_REQUEST_UNSERVED, x.src(), x.dst(), DETECTOR, x.ts())
                .severity("info")
                .message(
                        String.format(
                                "%s → %s is suspect (%s: %s) but no extra run was asked for: the %s's budget of %d per %s is spent",
                                x.src(),
                                x.dst(),
                                x.reason(),
                                x.message(),
                                budget,
                                max,
                                Fmt.seconds(window.toSeconds())))
                .evidence("reason", x.reason())
                .evidence("budget", budget)
                .evidence("budget_max", (long) max)
                .evidence("budget_window_s", window.toSeconds())
                .build();
    }

    /** A request the host's or the mesh's budget had no room for. */
    public static Event budget(ProbeRequest r, String budget, int max, Duration window) {
        return budget(
                new Suspicion(
                        r.src(),
                        r.dst(),
                        r.probeId(),
                        r.ts(),
                        r.reason(),
                        r.message(),
                        r.evidence(),
                        false),
                budget,
                max,
                window);
    }

    /** A request no run answered before it expired. */
    public static Event expired(ProbeRequest r) {
        return Event.builder(
                        EventKind.PROBE_REQUEST_UNSERVED, r.src(), r.dst(), DETECTOR, r.expiresTs())
                .severity("warning")
                .message(
                        String.format(
                                "no run of %s answered the probe request for %s → %s (%s) before it expired: "
                                        + "is the agent of %s running and reading longhaul.probe-requests? Its /health probe_requests "
                                        + "says what became of the requests it read (over its own budget, no such probe)",
                                r.probeId(), r.src(), r.dst(), r.reason(), r.src()))
                .evidence("request_id", r.requestId())
                .evidence("reason", r.reason())
                .evidence("probe", r.probeId())
                .evidence("requested_ts", r.ts())
                .build();
    }

    /** A request whose run the agent could not start in time (its exclusive turn never came). */
    public static Event notStarted(ProbeRequest r, RunSeen run) {
        return Event.builder(EventKind.PROBE_REQUEST_UNSERVED, r.src(), r.dst(), DETECTOR, run.ts())
                .severity("warning")
                .message(
                        String.format(
                                "the agent of %s could not start the requested run of %s towards %s (%s) before it expired: %s",
                                r.src(), r.probeId(), r.dst(), r.reason(), run.error()))
                .evidence("request_id", r.requestId())
                .evidence("reason", r.reason())
                .evidence("probe", r.probeId())
                .build();
    }
}
