package org.longhaul.flink.functions.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.longhaul.flink.functions.stats.LinkClockTest.T;
import static org.longhaul.flink.functions.stats.LinkClockTest.feed;

import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.operators.windowing.WindowOperatorBuilder;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The statistics' one-minute windows under Flink's own window operator with {@link
 * LinkCloseTrigger}: a {@link LinkClock} marker fires its window at once, whatever its record's
 * timestamp; the watermark still closes the rest; a window fired again holds a correction.
 */
class LinkCloseTriggerTest {
    private static final String KEY = "cern|fnal|owd";

    static KeyedOneInputStreamOperatorTestHarness<String, Observation, WindowedStats> minutes()
            throws Exception {
        WindowOperatorBuilder<Observation, String, TimeWindow> b =
                new WindowOperatorBuilder<>(
                        new StaggeredTumblingWindows<>(
                                Duration.ofMinutes(1),
                                Stagger.aligned(),
                                Observation::key,
                                o -> o.closes() ? o.ts() : null),
                        new LinkCloseTrigger<>(Observation::closes),
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

    /** "+Ns n=K" (window start after T, samples) of every window emitted, its part unless whole. */
    static List<String> emitted(
            KeyedOneInputStreamOperatorTestHarness<String, Observation, WindowedStats> h) {
        return h.extractOutputValues().stream()
                .map(
                        w ->
                                "+"
                                        + (w.windowStart() - T) / 1000
                                        + "s n="
                                        + w.accumulator().samples
                                        + (w.part() == WindowedStats.Part.WHOLE
                                                ? ""
                                                : " " + w.part().name().toLowerCase()))
                .toList();
    }

    @Test
    void aMarkerClosesItsWindowAtOnceAndCountsForNothing() throws Exception {
        try (var h = minutes()) {
            feed(h, "fnal", 20_000, 50_000, 80_000);
            // sent on with the record that passed the minute: its own time names its window
            h.processElement(Observation.closing(KEY, T + 59_999), T + 80_000);
            assertEquals(List.of("+0s n=2"), emitted(h));
            h.processWatermark(T + 5 * 60_000); // the watermark later: the next minute alone
            assertEquals(List.of("+0s n=2", "+60s n=1"), emitted(h));
        }
    }

    @Test
    void aMarkerFromATimerHasNoTimestampAndStillFindsItsWindow() throws Exception {
        try (var h = minutes()) {
            feed(h, "fnal", 20_000);
            h.processElement(new StreamRecord<>(Observation.closing(KEY, T + 59_999)));
            assertEquals(List.of("+0s n=1"), emitted(h));
        }
    }

    @Test
    void theWatermarkAloneClosesAsEventTimeTriggerDoes() throws Exception {
        try (var h = minutes()) {
            feed(h, "fnal", 1_000, 30_000);
            h.processWatermark(T + 59_998);
            assertEquals(List.of(), emitted(h));
            h.processWatermark(T + 59_999);
            assertEquals(List.of("+0s n=2"), emitted(h));
        }
    }

    @Test
    void aRecordAfterItsWindowClosedFiresAgainAsACorrectionAndTheMinuteIsRewritten()
            throws Exception {
        try (var h = minutes()) {
            feed(h, "fnal", 20_000, 25_000);
            h.processElement(Observation.closing(KEY, T + 59_999), T + 80_000);
            // a ping sent again after a broker's failover, behind the link's newer ones
            feed(h, "fnal", 30_000);
            h.processElement(Observation.closing(KEY, T + 59_999), T + 30_000);
            feed(h, "fnal", 40_000);
            h.processElement(Observation.closing(KEY, T + 59_999), T + 40_000);
            assertEquals(
                    List.of(
                            "+0s n=2",
                            "+0s n=1 correction",
                            "+0s n=3 rewrite",
                            "+0s n=1 correction",
                            "+0s n=4 rewrite"),
                    emitted(h));
            h.processWatermark(T + 5 * 60_000);
            assertEquals(5, emitted(h).size(), "the watermark fires nothing more");
        }
    }

    @Test
    void theRewrittenMinuteHoldsWhatItsPointHadMergedWithTheCorrection() throws Exception {
        try (var h = minutes()) {
            feed(h, "fnal", 20_000);
            h.processElement(Observation.closing(KEY, T + 59_999), T + 80_000);
            feed(h, "fnal", 30_000);
            h.processElement(Observation.closing(KEY, T + 59_999), T + 30_000);
            List<WindowedStats> out = h.extractOutputValues();
            LinkAccumulator whole = out.get(0).accumulator();
            LinkAccumulator rewrite = out.get(2).accumulator();
            assertEquals(2 * whole.runs, rewrite.runs);
            assertEquals(2 * whole.sentPackets, rewrite.sentPackets);
            assertEquals(whole.rttMin, rewrite.rttMin);
            assertEquals(1, whole.runs, "what was emitted first is not changed by the rewrite");
        }
    }

    @Test
    void onlyWholeWindowsAndCorrectionsRollUpAndOnlyCorrectionsAreNotWritten() {
        var whole = WindowedStats.Part.WHOLE;
        var correction = WindowedStats.Part.CORRECTION;
        var rewrite = WindowedStats.Part.REWRITE;
        assertEquals(
                List.of(true, true, false),
                List.of(whole.rolledUp(), correction.rolledUp(), rewrite.rolledUp()));
        assertEquals(
                List.of(true, false, true),
                List.of(whole.written(), correction.written(), rewrite.written()));
    }

    @Test
    void aWindowTheWatermarkClosedKeepsNoPoint() throws Exception {
        try (var h = minutes()) {
            feed(h, "fnal", 20_000);
            h.processWatermark(T + 59_999);
            assertEquals(List.of("+0s n=1"), emitted(h));
            assertEquals(0, h.numKeyedStateEntries(), "contents, trigger and point all cleared");
        }
    }

    @Test
    void aWindowWithAMarkerAloneEmitsNothing() throws Exception {
        try (var h = minutes()) {
            h.processElement(Observation.closing(KEY, T + 59_999), T + 80_000);
            h.processWatermark(T + 5 * 60_000);
            assertEquals(List.of(), emitted(h));
        }
    }
}
