package org.longhaul.flink.functions.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.MINUTE;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.testing.Harness;
import org.longhaul.flink.testing.Samples;

class NoDataDetectorTest {
    private static final Duration TTL = Duration.ofDays(7);
    private static final Duration OOO = Duration.ofMinutes(2);

    private static Harness<Heartbeat> harness() throws Exception {
        return Harness.of(new NoDataDetector(NoDataParams.defaults(), TTL, OOO), Heartbeat::key);
    }

    private static Heartbeat ping(String src, long ts) {
        return Heartbeat.of(Samples.rtt(Samples.ping(src, DST, ts, 10, 10, 283, 0.4)));
    }

    /** Pings every 2 minutes from T0; returns the time of the last one. */
    private static long pings(Harness<Heartbeat> h, String src, int n) throws Exception {
        long ts = T0;
        for (int i = 0; i < n; i++) {
            ts = T0 + i * 2 * MINUTE;
            h.add(ping(src, ts), ts);
        }
        return ts;
    }

    @Test
    void shouldReportSilenceAtThreeUsualGapsAndTheResumption() throws Exception {
        try (var h = harness()) {
            long last = pings(h, SRC, 10);
            long deadline = last + 6 * MINUTE;
            h.watermark(deadline - 1);
            assertEquals(List.of(), h.newEvents());
            h.watermark(deadline);
            List<Event> silent = h.newEvents();
            assertEquals(1, silent.size());
            Event e = silent.get(0);
            assertEquals("no_data", e.kind());
            assertEquals(deadline, e.ts());
            assertEquals(120.0, e.evidence().get("expected_interval_s"));
            assertEquals(last, e.evidence().get("last_seen_ts"));
            h.watermark(deadline + 60 * MINUTE);
            assertEquals(List.of(), h.newEvents(), "once per silence");
            h.add(ping(SRC, deadline + 61 * MINUTE), deadline + 61 * MINUTE);
            List<Event> back = h.newEvents();
            assertEquals("data_resumed", back.get(0).kind());
            assertEquals(e.episodeId(), back.get(0).episodeId());
        }
    }

    @Test
    void shouldWaitToLearnTheScheduleFirst() throws Exception {
        try (var h = harness()) {
            pings(h, SRC, 3);
            assertEquals(1, h.timers(), "two gaps: only the cleanup timer");
            h.watermark(T0 + 24 * 60 * MINUTE);
            assertEquals(List.of(), h.events());
        }
    }

    @Test
    void shouldNotTakeTheEndOfABoundedInputForSilence() throws Exception {
        try (var h = harness()) {
            pings(h, SRC, 10);
            h.watermark(Long.MAX_VALUE);
            assertEquals(List.of(), h.events());
            assertEquals(0, h.timers());
        }
    }

    @Test
    void shouldReportSilenceAtTheEndOfInputWhenOtherDataWentPastTheDeadline() throws Exception {
        try (var h = harness()) {
            long last = pings(h, SRC, 10);
            h.add(ping("other-source", last + 60 * MINUTE), last + 60 * MINUTE);
            h.watermark(Long.MAX_VALUE);
            List<Event> events = h.events();
            assertEquals(1, events.size(), events.toString());
            assertEquals(SRC, events.get(0).src());
            assertEquals(0, h.stateEntries(), "the final watermark also fires the cleanup timers");
        }
    }
}
