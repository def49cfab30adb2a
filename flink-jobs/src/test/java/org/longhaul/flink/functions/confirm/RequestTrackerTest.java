package org.longhaul.flink.functions.confirm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.Samples.T0;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.testing.Harness;

class RequestTrackerTest {
    private static final long MIN = 60_000;

    private static ProbeRequest req(long ts) {
        return ProbeRequest.of("s1", "dst-a", "tcp", ts, "loss", "loss seen", ts + 15 * MIN, null);
    }

    /**
     * The TCP run at ts that answers r: one that ran, or (notStarted) one the agent could not
     * start.
     */
    private static TrackerInput run(ProbeRequest r, long ts, String notStarted) {
        return TrackerInput.of(
                new RunSeen(
                        r.src(),
                        r.dst(),
                        r.probeId(),
                        ts,
                        r.requestId(),
                        true,
                        false,
                        notStarted != null,
                        notStarted));
    }

    @Test
    void aRequestAnsweredByItsRunIsForgottenAndOneLeftUnansweredIsReportedAtItsExpiry()
            throws Exception {
        try (var h = Harness.of(new RequestTracker(), TrackerInput::link)) {
            ProbeRequest answered = req(T0);
            h.add(TrackerInput.of(answered), T0);
            h.add(run(answered, T0 + MIN, null), T0 + MIN);
            ProbeRequest lost = req(T0 + 2 * MIN);
            h.add(TrackerInput.of(lost), T0 + 2 * MIN);
            h.watermark(T0 + 16 * MIN);
            assertEquals(
                    List.of(),
                    h.newEvents(),
                    "the first was answered; the second expires at +17 min");
            h.watermark(T0 + 17 * MIN);
            List<Event> events = h.newEvents();
            assertEquals(1, events.size());
            assertEquals("probe_request_unserved", events.get(0).kind());
            assertEquals(lost.requestId(), events.get(0).evidence().get("request_id"));
            assertTrue(
                    events.get(0).message().contains("is the agent of s1 running"),
                    events.get(0).message());
            assertEquals(0, h.stateEntries());
        }
    }

    @Test
    void aRequestedRunTheAgentCouldNotStartIsReportedWithWhy() throws Exception {
        try (var h = Harness.of(new RequestTracker(), TrackerInput::link)) {
            ProbeRequest r = req(T0);
            h.add(TrackerInput.of(r), T0);
            h.add(
                    run(r, T0, "not started within 15m0s: exclusive run X was still running"),
                    T0 + 15 * MIN);
            List<Event> events = h.newEvents();
            assertEquals(1, events.size());
            assertTrue(
                    events.get(0).message().endsWith("exclusive run X was still running"),
                    events.get(0).message());
            h.watermark(T0 + 20 * MIN);
            assertEquals(List.of(), h.newEvents(), "reported once");
        }
    }
}
