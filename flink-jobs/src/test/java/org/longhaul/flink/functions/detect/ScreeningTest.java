package org.longhaul.flink.functions.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.MINUTE;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.Suspicion;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.testing.Harness;
import org.longhaul.flink.testing.Samples;

/**
 * Screening bursts in the collapse detector: a 2 s burst every 10 minutes beside a 4-hourly full
 * test, with a baseline of its own (slow start: bursts run at a fraction of the full test here).
 */
class ScreeningTest {
    private static final double FULL = 557e6;
    private static final double BURST = 180e6;
    private long now = T0;
    private int run;

    private static Harness<ThroughputSample> harness() throws Exception {
        return Harness.of(
                new ThroughputCollapseDetector(CollapseParams.defaults(), Duration.ofDays(7)),
                t -> Links.key(t.src(), t.dst(), t.series()));
    }

    private List<Event> full(Harness<ThroughputSample> h, double bps) throws Exception {
        now += MINUTE;
        h.add(Samples.throughput(Samples.summary(SRC, DST, "f" + run++, now, bps)), now);
        return h.newEvents();
    }

    private List<Event> burst(Harness<ThroughputSample> h, double bps) throws Exception {
        now += 10 * MINUTE;
        h.add(
                Samples.throughput(
                        Samples.summary(SRC, DST, "b" + run++, now, bps)
                                .put("probe_id", "tcp-burst")
                                .put("screens", "tcp-default")
                                .put("duration_s", 1.0)),
                now);
        return h.newEvents();
    }

    private static List<Suspicion> suspicions(Harness<ThroughputSample> h) {
        return h.sideOutput(ThroughputCollapseDetector.SUSPECT);
    }

    /** Twelve full runs and twelve bursts, each a little noisy: both baselines learned. */
    private void learn(Harness<ThroughputSample> h) throws Exception {
        Random rnd = new Random(7);
        for (int i = 0; i < 12; i++) {
            assertEquals(List.of(), full(h, FULL * (0.95 + 0.1 * rnd.nextDouble())));
            assertEquals(List.of(), burst(h, BURST * (0.9 + 0.2 * rnd.nextDouble())));
        }
        assertEquals(List.of(), suspicions(h));
    }

    @Test
    void aLowBurstAsksForTheScreenedProbeAndItsLowRunRaisesTheAlarmAtOnce() throws Exception {
        try (var h = harness()) {
            learn(h);
            assertEquals(List.of(), burst(h, 55e6), "a burst never alerts by itself");
            long burstTs = now;
            Suspicion s = suspicions(h).get(0);
            assertEquals("throughput_low", s.reason());
            assertEquals("tcp-default", s.probeId(), "the run asked for is the screened probe's");
            assertEquals("tcp-burst", s.evidence().get("screening_probe"));
            assertTrue(
                    s.message().contains("screening burst (probe tcp-burst) at 55 Mbit/s"),
                    s.message());
            List<Event> alert = full(h, 150e6);
            assertEquals(1, alert.size(), "the burst was the first low run, this one the second");
            Event e = alert.get(0);
            assertEquals("throughput_collapse", e.kind());
            assertEquals(1L, e.evidence().get("samples"));
            assertEquals(1L, e.evidence().get("screening_bursts"));
            assertEquals(
                    150e6,
                    e.evidence().get("observed_bps"),
                    "the burst's own figure is not the link's");
            assertTrue(
                    e.episodeId().endsWith("@" + burstTs),
                    "the episode starts at the burst: " + e.episodeId());
            assertTrue(
                    e.message().endsWith("(1 run, probe tcp-default, after a low screening burst)"),
                    e.message());
            double baseline = (double) e.evidence().get("baseline_bps");
            assertTrue(
                    Math.abs(baseline - FULL) < 0.06 * FULL,
                    "the full runs' baseline: " + baseline);
        }
    }

    @Test
    void aLowBurstTheFullRunDoesNotConfirmIsForgotten() throws Exception {
        try (var h = harness()) {
            learn(h);
            burst(h, 55e6);
            assertEquals(List.of(), full(h, FULL), "the run asked for is healthy: no alarm");
            assertEquals(List.of(), full(h, 150e6), "a later low run is the first of two again");
            assertEquals(1, full(h, 150e6).size());
        }
    }

    @Test
    void aHealthyBurstAfterALowOneClearsIt() throws Exception {
        try (var h = harness()) {
            learn(h);
            burst(h, 55e6);
            burst(h, BURST);
            assertEquals(List.of(), full(h, 150e6), "only the latest burst counts");
            assertEquals(
                    1, suspicions(h).size() - 1, "the low full run asks for its own confirmation");
        }
    }

    @Test
    void burstsAndFullRunsKeepTheirOwnBaselines() throws Exception {
        try (var h = harness()) {
            learn(h);
            for (int i = 0; i < 48; i++) {
                burst(h, BURST);
            }
            assertEquals(
                    List.of(),
                    full(h, 0.9 * FULL),
                    "full runs are not judged against the bursts' 180 Mbit/s");
            assertEquals(List.of(), burst(h, 0.9 * BURST));
            assertEquals(List.of(), suspicions(h));
            assertEquals(List.of(), burst(h, 1e6), "even a catastrophic burst only asks");
            assertEquals(1, suspicions(h).size());
        }
    }

    @Test
    void duringACollapseABurstBackAsksForTheRunThatEndsItAndCountsAsTheFirstRunBack()
            throws Exception {
        try (var h = harness()) {
            learn(h);
            burst(h, 55e6);
            String episode = full(h, 150e6).get(0).episodeId();
            int before = suspicions(h).size();
            assertEquals(
                    List.of(), burst(h, 50e6), "a low burst during the collapse asks for nothing");
            assertEquals(before, suspicions(h).size());
            burst(h, BURST);
            Suspicion back = suspicions(h).get(before);
            assertEquals("throughput_recovering", back.reason());
            assertEquals("tcp-default", back.probeId());
            List<Event> end = full(h, FULL);
            assertEquals(1, end.size(), "the burst back and this run: two runs back");
            assertEquals("throughput_recovery", end.get(0).kind());
            assertEquals(episode, end.get(0).episodeId());
        }
    }

    @Test
    void aNoisyBurstRarelyAsksAndNeverAlerts() throws Exception {
        try (var h = harness()) {
            Random rnd = new Random(42);
            for (int i = 0; i < 12; i++) {
                full(h, FULL * (0.7 + 0.6 * rnd.nextDouble()));
            }
            // ±30 % noise, a burst every 10 min for 5 days (720 bursts), a full run every 4 h
            for (int i = 0; i < 720; i++) {
                assertEquals(List.of(), burst(h, BURST * (0.7 + 0.6 * rnd.nextDouble())));
                if (i % 24 == 23) {
                    assertEquals(
                            List.of(),
                            full(h, FULL * (0.7 + 0.6 * rnd.nextDouble())),
                            "full run " + i);
                }
            }
            int asked = suspicions(h).size();
            // one lone burst past the 33 % drop in five days: one extra run
            assertEquals(1, asked, "suspicions in 720 noisy bursts");
        }
    }
}
