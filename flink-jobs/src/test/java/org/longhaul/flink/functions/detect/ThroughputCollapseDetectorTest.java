package org.longhaul.flink.functions.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.HOUR;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.functions.History;
import org.longhaul.flink.functions.common.RobustStats;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.testing.Harness;
import org.longhaul.flink.testing.Samples;

class ThroughputCollapseDetectorTest {
    private static final Duration TTL = Duration.ofDays(7);
    private int run;

    /** The detector as the job runs it without confirmation probes: a catastrophic run pages. */
    private static Harness<ThroughputSample> harness() throws Exception {
        return harness(CollapseParams.defaults().pagingAtOnce());
    }

    private static Harness<ThroughputSample> harness(CollapseParams p) throws Exception {
        return Harness.of(
                new ThroughputCollapseDetector(p, TTL),
                t -> Links.key(t.src(), t.dst(), t.probeId()));
    }

    /** One run summary per hour. */
    private List<Event> feed(Harness<ThroughputSample> h, double bps) throws Exception {
        long ts = T0 + (run++) * HOUR;
        h.add(Samples.throughput(Samples.summary(SRC, DST, "r" + run, ts, bps)), ts);
        return h.newEvents();
    }

    private void noisy(Harness<ThroughputSample> h, Random rnd, double baseline, int runs)
            throws Exception {
        for (int i = 0; i < runs; i++) {
            assertEquals(
                    List.of(),
                    feed(h, baseline * (0.7 + 0.6 * rnd.nextDouble())),
                    "healthy run " + i);
        }
    }

    @Test
    void shouldStayQuietOnANoisyHealthyLink() throws Exception {
        try (var h = harness()) {
            noisy(h, new Random(42), 557e6, 24 * 30);
            assertEquals(List.of(), h.events());
        }
    }

    @Test
    void shouldAlertOnceAtTheSecondLowRunAndRecoverWithTheSameEpisode() throws Exception {
        try (var h = harness()) {
            noisy(h, new Random(1), 557e6, 48);
            assertEquals(List.of(), feed(h, 150e6), "first low run only enters the trigger");
            List<Event> alert = feed(h, 140e6);
            assertEquals(1, alert.size());
            Event e = alert.get(0);
            assertEquals("throughput_collapse", e.kind());
            assertEquals("warning", e.severity());
            assertEquals(145e6, e.evidence().get("observed_bps"));
            assertEquals(2L, e.evidence().get("samples"));
            double baseline = (double) e.evidence().get("baseline_bps");
            assertTrue(baseline > 500e6 && baseline < 620e6, "baseline " + baseline);
            for (int i = 0; i < 20; i++) {
                assertEquals(
                        List.of(),
                        feed(h, 120e6 + i * 1e6),
                        "no second alert, low runs never become the baseline");
            }
            assertEquals(List.of(), feed(h, 560e6));
            List<Event> back = feed(h, 540e6);
            assertEquals(1, back.size());
            assertEquals("throughput_recovery", back.get(0).kind());
            assertEquals(e.episodeId(), back.get(0).episodeId());
            assertEquals(22L, back.get(0).evidence().get("low_runs"));
            noisy(h, new Random(2), 557e6, 48);
        }
    }

    /** The runs that would decide sooner are suspicions: the first low run, the first run back. */
    @Test
    void shouldSuspectTheLinkAtTheFirstLowRunAndAtTheFirstRunBackNeverOnNoise() throws Exception {
        try (var h = harness()) {
            noisy(h, new Random(42), 557e6, 24 * 30);
            // ±30 % noise, hourly for 30 days: two lone runs just past the 33 % drop, one extra
            // probe
            // per 15 days (none of them alerts: the confirming run is back in the noise)
            int noise = h.sideOutput(ThroughputCollapseDetector.SUSPECT).size();
            assertEquals(2, noise, "suspicions on a noisy healthy link in 720 runs");
            feed(h, 150e6);
            var low = h.sideOutput(ThroughputCollapseDetector.SUSPECT).subList(noise, noise + 1);
            assertEquals(List.of("throughput_low"), low.stream().map(s -> s.reason()).toList());
            assertEquals("tcp-default", low.get(0).probeId());
            assertTrue(
                    low.get(0).message().contains("1 of the 2 low runs that make a collapse"),
                    low.get(0).message());
            assertEquals(1, feed(h, 140e6).size(), "the confirming run raises the alert");
            assertEquals(
                    noise + 1,
                    h.sideOutput(ThroughputCollapseDetector.SUSPECT).size(),
                    "the alarm itself suspects nothing more");
            feed(h, 560e6);
            var all = h.sideOutput(ThroughputCollapseDetector.SUSPECT);
            assertEquals("throughput_recovering", all.get(all.size() - 1).reason());
            assertEquals("throughput_recovery", feed(h, 550e6).get(0).kind());
        }
    }

    @Test
    void shouldAlertAtTheFirstRunOfACatastrophicDrop() throws Exception {
        try (var h = harness()) {
            noisy(h, new Random(3), 557e6, 20);
            List<Event> alert = feed(h, 2.5e6);
            assertEquals(1, alert.size());
            assertEquals("critical", alert.get(0).severity());
            assertTrue(alert.get(0).message().contains("2.5 Mbit/s"), alert.get(0).message());
        }
    }

    @Test
    void withConfirmationsACatastrophicRunAsksForItsConfirmingRunInsteadOfPaging()
            throws Exception {
        try (var h = harness(CollapseParams.defaults())) {
            noisy(h, new Random(3), 557e6, 20);
            assertEquals(List.of(), feed(h, 2.5e6), "no page on one run");
            var asks = h.sideOutput(ThroughputCollapseDetector.SUSPECT);
            assertTrue(
                    asks.get(asks.size() - 1).message().contains("confirming before paging"),
                    asks.toString());
            // the confirming run is fine: nothing pages, now or when the wait ends
            long confirmTs = T0 + run * HOUR;
            h.add(Samples.throughput(Samples.summary(SRC, DST, "c", confirmTs, 560e6)), confirmTs);
            h.watermark(confirmTs + Duration.ofMinutes(11).toMillis());
            assertEquals(List.of(), h.events());
        }
    }

    @Test
    void withConfirmationsALowConfirmingRunPagesAtIt() throws Exception {
        try (var h = harness(CollapseParams.defaults())) {
            noisy(h, new Random(3), 557e6, 20);
            assertEquals(List.of(), feed(h, 2.5e6));
            List<Event> alert = feed(h, 3e6);
            assertEquals(1, alert.size());
            assertEquals("throughput_collapse", alert.get(0).kind());
            assertEquals(2L, alert.get(0).evidence().get("samples"), "both runs");
        }
    }

    @Test
    void withConfirmationsACatastrophicRunPagesAloneWhenNoRunComesInTime() throws Exception {
        try (var h = harness(CollapseParams.defaults())) {
            noisy(h, new Random(3), 557e6, 20);
            long ts = T0 + run * HOUR;
            assertEquals(List.of(), feed(h, 2.5e6));
            h.watermark(ts + Duration.ofMinutes(10).toMillis() - 1);
            assertEquals(List.of(), h.newEvents(), "not before the wait's end");
            h.watermark(ts + Duration.ofMinutes(10).toMillis());
            List<Event> alert = h.newEvents();
            assertEquals(1, alert.size());
            Event e = alert.get(0);
            assertEquals("critical", e.severity());
            assertEquals(ts + Duration.ofMinutes(10).toMillis(), e.ts());
            assertEquals(SRC, e.src());
            assertTrue(e.message().contains("no confirming run within 10 min"), e.message());
            // and the episode ends as any other
            feed(h, 560e6);
            List<Event> back = feed(h, 560e6);
            assertEquals("throughput_recovery", back.get(0).kind());
            assertEquals(e.episodeId(), back.get(0).episodeId());
        }
    }

    @Test
    void shouldIgnoreASingleLowRun() throws Exception {
        try (var h = harness()) {
            noisy(h, new Random(4), 557e6, 20);
            assertEquals(List.of(), feed(h, 200e6));
            noisy(h, new Random(5), 557e6, 20);
            assertEquals(List.of(), h.events());
        }
    }

    @Test
    void shouldJudgeA20MbitAndA10GbitLinkAlike() throws Exception {
        for (double scale : new double[] {20e6, 10e9}) {
            run = 0;
            try (var h = harness()) {
                noisy(h, new Random(6), scale, 30);
                feed(h, scale * 0.4);
                List<Event> alert = feed(h, scale * 0.4);
                assertEquals(1, alert.size(), "scale " + scale);
                assertEquals(List.of(), feed(h, scale));
                assertEquals("throughput_recovery", feed(h, scale).get(0).kind());
            }
        }
    }

    @Test
    void shouldNeedAMinimumHistory() throws Exception {
        try (var h = harness()) {
            noisy(h, new Random(7), 557e6, 5);
            assertEquals(List.of(), feed(h, 10e6));
            assertEquals(List.of(), feed(h, 10e6));
        }
    }

    @Test
    void shouldIgnoreFailedRunsAndDropStateAfterTheTtl() throws Exception {
        try (var h = harness()) {
            noisy(h, new Random(8), 557e6, 12);
            h.add(
                    Samples.throughput(
                            Samples.failed(SRC, DST, "x", T0 + run * HOUR, "connection_refused")),
                    T0 + run * HOUR);
            assertEquals(List.of(), h.events());
            assertEquals(1, h.timers());
            h.watermark(T0 + (run + 1) * HOUR + TTL.toMillis());
            assertEquals(0, h.timers());
            assertEquals(0, h.stateEntries());
        }
    }

    /**
     * Backfilled run summaries, newest first as `longhaul import` sends them, one per hour before
     * T0.
     */
    private static void backfill(Harness<ThroughputSample> h, double... bps) throws Exception {
        for (int i = 0; i < bps.length; i++) {
            long ts = T0 - (i + 1) * HOUR;
            h.add(
                    Samples.throughput(Samples.summary(SRC, DST, "old" + i, ts, bps[i])),
                    History.TIMESTAMP);
        }
    }

    @Test
    void shouldJudgeTheFirstLiveRunAgainstABackfilledBaselineAndNeverAlertOnHistory()
            throws Exception {
        try (var h = harness()) {
            double[] old = new double[12];
            for (int i = 0; i < old.length; i++) {
                old[i] =
                        i == 11
                                ? 20e6
                                : 100e6 + i * 1e6; // an old collapse, judged once 10 runs are
                // known: never alerts, never enters
            }
            backfill(h, old);
            assertEquals(
                    List.of(), h.events(), "history raises nothing, not even its old collapse");
            List<Event> alert = feed(h, 2e6);
            assertEquals(
                    1,
                    alert.size(),
                    "the first live run is judged at once: the baseline came from history");
            assertEquals("critical", alert.get(0).severity());
            assertEquals(
                    11L,
                    alert.get(0).evidence().get("history_runs"),
                    "the old low run was left out");
            double baseline = (double) alert.get(0).evidence().get("baseline_bps");
            assertTrue(baseline > 100e6 && baseline < 112e6, "baseline " + baseline);
        }
    }

    @Test
    void shouldLearnNothingWithoutBackfillSoTheSameRunOnlyStartsAHistory() throws Exception {
        try (var h = harness()) {
            assertEquals(List.of(), feed(h, 2e6), "control: a link without history only learns");
        }
    }

    @Test
    void shouldNeverLetHistoryPushOutLiveRuns() throws Exception {
        var p = CollapseParams.defaults();
        var d = new ThroughputCollapseDetector(p, TTL);
        CollapseState s = new CollapseState();
        for (int i = 0; i < p.history(); i++) {
            s.history = RobustStats.append(s.history, 500e6, p.history());
        }
        d.learn(s, 100e6);
        assertEquals(p.history(), s.history.length);
        assertTrue(
                java.util.Arrays.stream(s.history).allMatch(x -> x == 500e6),
                "a full live history stays as it is");
        CollapseState partial = new CollapseState();
        partial.history = new double[] {500e6, 510e6};
        d.learn(partial, 490e6);
        assertEquals(
                490e6, partial.history[0], "history goes before the live runs, as their oldest");
        partial.inEpisode = true;
        d.learn(partial, 480e6);
        assertEquals(3, partial.history.length, "an open episode's history is left alone");
    }
}
