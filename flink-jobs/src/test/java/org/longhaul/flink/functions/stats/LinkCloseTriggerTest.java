package org.longhaul.flink.functions.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.operators.windowing.WindowOperatorBuilder;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The statistics' one-minute windows under Flink's own window operator with {@link
 * LinkCloseTrigger}: a link's minute closes by its own clock (processing time since its element
 * arrived) or by the watermark, whichever comes first, exactly once; a late element of a minute
 * closed by its link's clock fires again as a correction.
 */
class LinkCloseTriggerTest {
    private static final long M = 60_000;
    private static final long T = 1_796_000_040_000L; // a minute boundary
    private static final Duration GRACE = Duration.ofSeconds(10);

    private static Observation sample(String dst, long ts) {
        return new Observation(
                "cern", dst, "owd", ts, 1, 1, 0, null, null, null, 0L, 600L, 0.0, 0.1, 140.0, 141.0,
                142.0, null);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, Observation, WindowedStats>
            minutes() throws Exception {
        WindowOperatorBuilder<Observation, String, TimeWindow> b =
                new WindowOperatorBuilder<>(
                        new StaggeredTumblingWindows<>(
                                Duration.ofMinutes(1), Stagger.aligned(), Observation::key),
                        new LinkCloseTrigger(GRACE),
                        new ExecutionConfig(),
                        TypeInformation.of(Observation.class),
                        Observation::key,
                        Types.STRING);
        OneInputStreamOperator<Observation, WindowedStats> op =
                b.aggregate(
                        new LinkStatsAggregate(),
                        new AddWindowBounds("1m"),
                        TypeInformation.of(LinkAccumulator.class));
        var h = new KeyedOneInputStreamOperatorTestHarness<>(op, Observation::key, Types.STRING);
        h.open();
        return h;
    }

    /** (dst, window start, samples, correction) of every window emitted so far. */
    private static List<String> emitted(
            KeyedOneInputStreamOperatorTestHarness<String, Observation, WindowedStats> h) {
        return h.extractOutputValues().stream()
                .map(
                        w ->
                                w.key().split("\\|")[1]
                                        + " +"
                                        + (w.windowStart() - T) / 1000
                                        + "s n="
                                        + w.accumulator().samples
                                        + (w.correction() ? " correction" : ""))
                .toList();
    }

    @Test
    void dueOneWindowAfterTheElementByTheLinksClockPlusTheGrace() {
        assertEquals(
                1_000 + 40_000 + 10_000, LinkCloseTrigger.dueAt(1_000, T + 20_000, T + M, 10_000));
        // an element stamped after its window's end (a coarser window's input) is due at the grace
        assertEquals(1_000 + 10_000, LinkCloseTrigger.dueAt(1_000, T + M + 5, T + M, 10_000));
        assertThrows(
                IllegalArgumentException.class, () -> new LinkCloseTrigger(Duration.ofSeconds(-1)));
    }

    @Test
    void aLinksMinuteClosesByItsOwnClockWhileTheWatermarkStaysBehind() throws Exception {
        try (var h = minutes()) {
            h.setProcessingTime(1_000_000);
            // a latencybg result for [T+20s, T+80s) taken a minute after it started
            h.processElement(sample("fnal", T + 20_000), T + 20_000);
            h.processWatermark(T - 2 * M); // the fleet's watermark, minutes behind
            h.setProcessingTime(1_000_000 + 40_000 + 9_999);
            assertEquals(List.of(), emitted(h), "not before its end by the link's clock + grace");
            h.setProcessingTime(1_000_000 + 40_000 + 10_000);
            assertEquals(List.of("fnal +0s n=1"), emitted(h));
            // the watermark passing the window later emits nothing again
            h.processWatermark(T + 5 * M);
            assertEquals(List.of("fnal +0s n=1"), emitted(h));
        }
    }

    @Test
    void theWatermarkStillClosesAMinuteFirstWhenItComesFirst() throws Exception {
        try (var h = minutes()) {
            h.setProcessingTime(0);
            h.processElement(sample("fnal", T + 1_000), T + 1_000);
            h.processElement(sample("fnal", T + 30_000), T + 30_000);
            h.processWatermark(T + M); // a replay: the watermark races ahead of the wall clock
            assertEquals(List.of("fnal +0s n=2"), emitted(h));
            h.setProcessingTime(10 * M); // the link's clock passes the end later: nothing again
            assertEquals(List.of("fnal +0s n=2"), emitted(h));
            assertEquals(0, h.numProcessingTimeTimers(), "the backstop timer went with the window");
        }
    }

    @Test
    void eachLinkClosesByItsOwnClockNotByTheOthers() throws Exception {
        try (var h = minutes()) {
            h.setProcessingTime(0);
            h.processElement(sample("fnal", T + 50_000), T + 50_000); // due at 10 s + 10 s
            h.processElement(sample("kek", T + 5_000), T + 5_000); // due at 55 s + 10 s
            h.setProcessingTime(20_000);
            assertEquals(List.of("fnal +0s n=1"), emitted(h));
            h.setProcessingTime(65_000);
            assertEquals(List.of("fnal +0s n=1", "kek +0s n=1"), emitted(h));
        }
    }

    @Test
    void anElementOfAMinuteItsLinkClosedIsACorrectionNotARewrite() throws Exception {
        try (var h = minutes()) {
            h.setProcessingTime(0);
            h.processElement(sample("fnal", T + 50_000), T + 50_000);
            h.processElement(sample("fnal", T + 55_000), T + 55_000);
            h.setProcessingTime(20_000);
            // a run of the same minute, posted 40 s late: the watermark has not passed the minute
            h.processElement(sample("fnal", T + 52_000), T + 52_000);
            h.setProcessingTime(20_000 + 8_000 + 10_000);
            assertEquals(List.of("fnal +0s n=2", "fnal +0s n=1 correction"), emitted(h));
            // behind the watermark it is late, as before: dropped and counted by Flink
            h.processWatermark(T + 2 * M);
            h.processElement(sample("fnal", T + 53_000), T + 53_000);
            h.setProcessingTime(10 * M);
            assertEquals(2, emitted(h).size());
        }
    }

    @Test
    void aDataStreamThatStopsStillClosesItsLastMinute() throws Exception {
        try (var h = minutes()) {
            h.setProcessingTime(0);
            for (int i = 0; i < 5; i++) {
                h.processElement(sample("fnal", T + i * M + 30_000), T + i * M + 30_000);
            }
            // no more data and no watermark at all (every topic silent)
            h.setProcessingTime(M + 30_000 + 10_000);
            assertEquals(5, emitted(h).size(), "every minute, the last one too");
        }
    }
}
