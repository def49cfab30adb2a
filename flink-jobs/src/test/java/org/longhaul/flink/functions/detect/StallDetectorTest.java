package org.longhaul.flink.functions.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.testing.Harness;
import org.longhaul.flink.testing.Samples;

class StallDetectorTest {

    private static Harness<RunInterval> harness() throws Exception {
        return Harness.of(new StallDetector(StallParams.defaults()), RunInterval::key);
    }

    /** Feeds 5-second intervals of one run with the given rates (Mbit/s). */
    private static void run(Harness<RunInterval> h, String runId, double... mbps) throws Exception {
        for (int i = 0; i < mbps.length; i++) {
            ThroughputSample s =
                    Samples.throughput(
                            Samples.interval(SRC, DST, runId, T0, i * 5, i * 5 + 5, mbps[i] * 1e6));
            RunInterval r = RunInterval.of(s);
            h.add(r, r.ts());
        }
    }

    @Test
    void shouldReportOneStallForTheSeed000Run() throws Exception {
        try (var h = harness()) {
            run(h, "r1", 39.6, 0, 0, 0, 0, 0, 0, 0, 0, 13.2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
            List<Event> events = h.events();
            assertEquals(1, events.size(), events.toString());
            Event e = events.get(0);
            assertEquals("stall", e.kind());
            assertEquals(
                    T0 + 15_000, e.ts(), "raised by the interval that reaches 10 s of silence");
            assertEquals(10.0, e.evidence().get("stalled_s"));
            assertEquals(5.0, e.evidence().get("stall_start_s"));
            assertEquals(39.6e6, e.evidence().get("peak_bps"));
            assertEquals("r1", e.evidence().get("run_id"));
            assertTrue(e.message().contains("39.6 Mbit/s"), e.message());
        }
    }

    @Test
    void shouldIgnoreSilenceBeforeTheFirstBytesAndShortDips() throws Exception {
        try (var h = harness()) {
            run(h, "r2", 0, 0, 0, 50, 0, 50, 0.1, 50);
            assertEquals(List.of(), h.events());
        }
    }

    @Test
    void shouldCountNearZeroRelativeToTheRunsPeak() throws Exception {
        try (var h = harness()) {
            run(h, "r3", 9400, 9400, 50, 40, 9400);
            assertEquals(
                    1, h.events().size(), "50 Mbit/s after 9.4 Gbit/s is under 1% of the peak");
        }
    }

    @Test
    void shouldDropTheRunsStateOnceTheRunIsOver() throws Exception {
        try (var h = harness()) {
            run(h, "r4", 10, 0, 0, 0);
            assertEquals(1, h.timers());
            assertTrue(h.stateEntries() > 0);
            h.watermark(T0 + 20_000 + StallParams.defaults().runIdle().toMillis());
            assertEquals(0, h.timers());
            assertEquals(0, h.stateEntries());
        }
    }

    @Test
    void aRunStillSendingOutlivesItsFirstCleanupTimeAndIsDroppedOnceSilent() throws Exception {
        long idle = StallParams.defaults().runIdle().toMillis();
        try (var h = harness()) {
            run(h, "r5", 10); // one interval ending at T0 + 5 s
            var late = Samples.throughput(Samples.interval(SRC, DST, "r5", T0, 300, 305, 10e6));
            RunInterval r = RunInterval.of(late); // ends at T0 + 305 s
            h.add(r, r.ts());
            assertEquals(1, h.timers(), "later data raises the expiry without another timer");
            h.watermark(T0 + 5_000 + idle); // the first timer fires: not idle yet
            assertTrue(h.stateEntries() > 0, "the run had data 300 s later: its state stays");
            assertEquals(1, h.timers(), "the timer is set again at the new expiry");
            h.watermark(T0 + 305_000 + idle);
            assertEquals(0, h.timers());
            assertEquals(0, h.stateEntries());
        }
    }
}
