package org.longhaul.flink.functions.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.ContractAssert.assertAllValid;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.HOUR;
import static org.longhaul.flink.testing.Samples.MINUTE;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.functions.History;
import org.longhaul.flink.functions.common.Fmt;
import org.longhaul.flink.functions.common.RobustStats;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.LinkStats;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.testing.Harness;
import org.longhaul.flink.testing.Samples;

/**
 * The baseline the collapse detector publishes after each live run (side output BASELINE,
 * link_stats window baseline): the median and robust σ it judges the next run against, whether it
 * has its minimum history, and during a collapse the baseline frozen when the episode opened.
 */
class CollapseBaselineTest {
    /** A minimum history of 5 runs, as the testbed's story runs the job; pages at once. */
    private static final CollapseParams P =
            new CollapseParams(48, 5, 2.0, 0.33, 2, 0.90, 2, Duration.ZERO);

    /** 90..110 Mbit/s: median 100, deviations 0, 5, 5, 10, 10, so σ = 1.4826 × 5 Mbit/s. */
    private static final double[] HEALTHY = {100e6, 110e6, 90e6, 105e6, 95e6};

    private static final double SIGMA = RobustStats.MAD_TO_SIGMA * 5e6;

    private int run;

    private static Harness<ThroughputSample> harness() throws Exception {
        return Harness.of(
                new ThroughputCollapseDetector(P, Duration.ofDays(7)),
                t -> Links.key(t.src(), t.dst(), t.series()));
    }

    private static long at(int run) {
        return T0 + run * HOUR;
    }

    /** One live run; the events it raised. */
    private List<Event> feed(Harness<ThroughputSample> h, double bps) throws Exception {
        long ts = at(run++);
        h.add(Samples.throughput(Samples.summary(SRC, DST, "r" + run, ts, bps)), ts);
        return h.newEvents();
    }

    /** Every baseline published so far, each checked against the contract. */
    private static List<LinkStats> baselines(Harness<ThroughputSample> h) {
        List<LinkStats> all = h.sideOutput(ThroughputCollapseDetector.BASELINE);
        assertAllValid(Contract.LINK_STATS, all);
        return all;
    }

    private static LinkStats last(Harness<ThroughputSample> h) {
        List<LinkStats> all = baselines(h);
        return all.get(all.size() - 1);
    }

    @Test
    void shouldPublishTheLearningBaselineAfterEachRunAndBeReadyAtTheMinimumHistory()
            throws Exception {
        try (var h = harness()) {
            for (int i = 0; i < HEALTHY.length; i++) {
                assertEquals(List.of(), feed(h, HEALTHY[i]));
                LinkStats b = last(h);
                assertEquals(i + 1, baselines(h).size(), "one baseline a run");
                assertEquals(i + 1, b.samples(), "the runs the baseline holds");
                assertEquals(i + 1, b.runs());
                assertEquals(i == HEALTHY.length - 1, b.baselineReady(), "ready at run " + (i + 1));
                assertEquals(5, b.baselineMinRuns());
            }
            LinkStats b = last(h);
            assertEquals("baseline", b.window());
            assertEquals("collapse-detector", b.probeId());
            assertEquals("tcp-default", b.series());
            assertEquals("tcp", b.protocol());
            assertEquals(SRC, b.src());
            assertEquals(DST, b.dst());
            assertEquals(at(4), b.ts(), "the time of the run it took");
            assertEquals(at(4), b.windowStart());
            assertEquals(at(4), b.windowEnd());
            assertEquals(100e6, b.baselineBps());
            assertEquals(SIGMA, b.baselineSpreadBps(), 1e-6);
            assertEquals(null, b.throughputMeanBps(), "a baseline is no window's statistics");
        }
    }

    @Test
    void shouldPublishTheFrozenBaselineTheCollapseWasJudgedAgainstUntilItRecovers()
            throws Exception {
        try (var h = harness()) {
            for (double x : HEALTHY) {
                feed(h, x);
            }
            assertEquals(List.of(), feed(h, 40e6), "the first low run only enters the trigger");
            LinkStats pending = last(h);
            assertEquals(5, pending.runs(), "a low run never enters the baseline");
            assertEquals(100e6, pending.baselineBps());
            Event collapse = feed(h, 30e6).get(0);
            LinkStats judged = last(h);
            assertEquals("throughput_collapse", collapse.kind());
            assertEquals(
                    Fmt.round(judged.baselineBps()),
                    collapse.evidence().get("baseline_bps"),
                    "the event names the baseline the matrix divides by");
            assertEquals(
                    Fmt.round(judged.baselineSpreadBps()),
                    collapse.evidence().get("baseline_stddev_bps"));
            assertEquals((long) judged.runs(), collapse.evidence().get("history_runs"));
            assertTrue(judged.baselineReady());
            for (int i = 0; i < 3; i++) {
                feed(h, 20e6);
                assertEquals(100e6, last(h).baselineBps(), "frozen during the episode");
                assertEquals(SIGMA, last(h).baselineSpreadBps(), 1e-6);
            }
            feed(h, 104e6);
            assertEquals(
                    "throughput_recovery", feed(h, 106e6).get(0).kind(), "two runs back end it");
            LinkStats after = last(h);
            assertEquals(7, after.runs(), "the runs back join the history");
            assertEquals(104e6, after.baselineBps(), "median of 90 95 100 104 105 106 110");
        }
    }

    @Test
    void shouldPublishNothingForBackfilledRunsOrScreeningBurstsAndBeReadyAtTheFirstLiveRun()
            throws Exception {
        try (var h = harness()) {
            for (int i = 0; i < HEALTHY.length; i++) {
                long ts = T0 - (i + 1) * HOUR; // newest first, as `longhaul import` sends them
                h.add(
                        Samples.throughput(Samples.summary(SRC, DST, "old" + i, ts, HEALTHY[i])),
                        History.TIMESTAMP);
            }
            long burst = T0 - MINUTE;
            h.add(
                    Samples.throughput(
                            Samples.summary(SRC, DST, "b", burst, 30e6)
                                    .put("probe_id", "tcp-burst")
                                    .put("screens", "tcp-default")),
                    burst);
            assertEquals(List.of(), baselines(h), "history and bursts publish nothing");
            assertEquals(List.of(), feed(h, 101e6));
            LinkStats b = last(h);
            assertEquals(1, baselines(h).size());
            assertTrue(b.baselineReady(), "the first live run was judged: the matrix fills");
            assertEquals(6, b.runs());
            assertEquals(100.5e6, b.baselineBps());
        }
    }

    @Test
    void shouldPublishNothingForAFailedRun() throws Exception {
        try (var h = harness()) {
            h.add(Samples.throughput(Samples.failed(SRC, DST, "x", T0, "timeout")), T0);
            assertEquals(List.of(), baselines(h));
        }
    }
}
