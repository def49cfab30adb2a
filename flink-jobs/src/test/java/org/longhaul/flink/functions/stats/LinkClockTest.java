package org.longhaul.flink.functions.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * Each link's own clock for its minutes ({@link LinkClock}): when it sends a closing marker, and
 * for which window, on the wall clock of Flink's test harness.
 */
class LinkClockTest {
    static final long M = 60_000;
    static final long T = 1_796_000_040_000L; // a minute boundary
    static final long SETTLE = 5_000;
    static final long BACKSTOP = 120_000;
    static final long WARM = 1_000_000; // a while after the instance's first call (at 0)

    static Observation sample(String dst, long ts) {
        return new Observation(
                "cern", dst, "owd", ts, 1, 1, 0, null, null, null, 0L, 600L, 0.0, 0.1, 140.0, 141.0,
                142.0, null, null);
    }

    static KeyedOneInputStreamOperatorTestHarness<String, Observation, Observation> clock()
            throws Exception {
        var h = clock0();
        h.open();
        h.setProcessingTime(0);
        h.processElement(sample("warm-up", T - 10 * M), T - 10 * M); // the instance's first call
        h.setProcessingTime(WARM);
        return h;
    }

    /** Feeds h a sample of the link to dst at each offset after T, stamped with its time. */
    static void feed(
            OneInputStreamOperatorTestHarness<Observation, ?> h, String dst, long... offsets)
            throws Exception {
        for (long offset : offsets) {
            h.processElement(sample(dst, T + offset), T + offset);
        }
    }

    /** What the clock sent for dst, in order: "+Ns" a record of T+N s, "close +Ns" a marker. */
    static List<String> sent(
            KeyedOneInputStreamOperatorTestHarness<String, Observation, Observation> h,
            String dst) {
        return h.extractOutputValues().stream()
                .filter(o -> o.dst().equals(dst))
                .map(o -> (o.closes() ? "close +" : "+") + (o.ts() - T) / 1000 + "s")
                .toList();
    }

    @Test
    void theLinksFirstRecordPastAMinutesEndClosesItASettleLater() throws Exception {
        try (var h = clock()) {
            feed(h, "fnal", 20_000);
            h.setProcessingTime(WARM + M);
            // the next latencybg result, a minute later: past the first minute's end
            feed(h, "fnal", 80_000);
            h.setProcessingTime(WARM + M + SETTLE - 1);
            assertEquals(List.of("+20s", "+80s"), sent(h, "fnal"));
            h.setProcessingTime(WARM + M + SETTLE);
            assertEquals(List.of("+20s", "+80s", "close +59s"), sent(h, "fnal"));
        }
    }

    @Test
    void aRunsOwnRecordsStampedEarlierArriveWithinTheSettle() throws Exception {
        try (var h = clock()) {
            // an iperf3 run started at T+55 s: its intervals cross the minute, its summary is
            // stamped with the run's start and comes last
            feed(h, "fnal", 55_000, 61_000);
            h.setProcessingTime(WARM + 200);
            feed(h, "fnal", 55_000);
            h.setProcessingTime(WARM + SETTLE);
            assertEquals(List.of("+55s", "+61s", "+55s", "close +59s"), sent(h, "fnal"));
        }
    }

    @Test
    void aSilentLinkClosesItsMinuteTheBackstopPastItsEndWhileOthersTalk() throws Exception {
        try (var h = clock()) {
            feed(h, "fnal", 20_000);
            for (long t = 30_000; t <= 150_000; t += 30_000) { // kek goes on sending
                h.setProcessingTime(WARM + t);
                feed(h, "kek", 50_000);
            }
            h.setProcessingTime(WARM + 40_000 + BACKSTOP - 1);
            assertEquals(List.of("+20s"), sent(h, "fnal"));
            h.setProcessingTime(WARM + 40_000 + BACKSTOP);
            assertEquals(List.of("+20s", "close +59s"), sent(h, "fnal"));
        }
    }

    @Test
    void whileEveryLinkIsSilentTheMinutesWait() throws Exception {
        try (var h = clock()) {
            // a broker's outage: the agents' runs wait in their spools, nothing reaches the job
            feed(h, "fnal", 20_000);
            h.setProcessingTime(WARM + 299_999);
            assertEquals(List.of("+20s"), sent(h, "fnal"), "no link talks: nothing closes");
            h.setProcessingTime(WARM + 300_000); // the broker is back: another link talks
            feed(h, "kek", 50_000);
            h.setProcessingTime(WARM + 399_999);
            assertEquals(List.of("+20s"), sent(h, "fnal"));
            h.setProcessingTime(WARM + 400_000);
            assertEquals(List.of("+20s", "close +59s"), sent(h, "fnal"));
        }
    }

    @Test
    void theRecordsOfAMinuteItsLinkClosedAreOneCorrectionASettleLater() throws Exception {
        try (var h = clock()) {
            feed(h, "fnal", 20_000, 80_000);
            h.setProcessingTime(WARM + SETTLE);
            feed(h, "fnal", 30_000); // posted out of its order
            h.setProcessingTime(WARM + SETTLE + 1_000);
            feed(h, "fnal", 40_000, 50_000); // and more of that minute, behind it
            h.setProcessingTime(WARM + 2 * SETTLE - 1);
            assertEquals(
                    List.of("+20s", "+80s", "close +59s", "+30s", "+40s", "+50s"),
                    sent(h, "fnal"),
                    "no marker a record: the minute is not written again for each");
            h.setProcessingTime(WARM + 2 * SETTLE);
            assertEquals(
                    List.of("+20s", "+80s", "close +59s", "+30s", "+40s", "+50s", "close +59s"),
                    sent(h, "fnal"));
            // the link's current minute still closes by its clock: 80 s is not passed yet
            feed(h, "fnal", 125_000);
            h.setProcessingTime(WARM + 3 * SETTLE);
            assertEquals("close +119s", sent(h, "fnal").get(8));
        }
    }

    @Test
    void eachLinkKeepsItsOwnClock() throws Exception {
        try (var h = clock()) {
            feed(h, "fnal", 20_000);
            feed(h, "kek", 50_000);
            feed(h, "fnal", 80_000);
            h.setProcessingTime(WARM + SETTLE);
            assertEquals(List.of("+20s", "+80s", "close +59s"), sent(h, "fnal"));
            assertEquals(List.of("+50s"), sent(h, "kek"), "kek's data have not passed its minute");
        }
    }

    @Test
    void noMarkerForAMinuteTheWatermarkHasClosed() throws Exception {
        try (var h = clock()) {
            feed(h, "fnal", 20_000, 80_000);
            h.processWatermark(T + M);
            h.setProcessingTime(WARM + SETTLE);
            assertEquals(List.of("+20s", "+80s"), sent(h, "fnal"));
        }
    }

    @Test
    void aFreshStartClosesItsFirstPassedMinuteASettleLater() throws Exception {
        // nothing to read again: no quiet after the first call (the fleet's first minutes)
        try (var h = clock0()) {
            h.open();
            h.setProcessingTime(0);
            feed(h, "fnal", 20_000);
            h.setProcessingTime(M);
            feed(h, "fnal", 80_000);
            h.setProcessingTime(M + SETTLE);
            assertEquals(List.of("+20s", "+80s", "close +59s"), sent(h, "fnal"));
        }
    }

    @Test
    void afterARestartNothingClosesByTheWallClockUntilTheBackstopHasPassed() throws Exception {
        try (var h = clock()) {
            feed(h, "fnal", 20_000, 80_000);
            var snapshot = h.snapshot(1, WARM);
            try (var restored = clock0()) {
                restored.initializeState(snapshot);
                restored.open();
                restored.setProcessingTime(WARM + M); // the restored timer is long due
                feed(restored, "kek", 5_000);
                assertEquals(List.of(), sent(restored, "fnal"), "the backlog is read first");
                restored.setProcessingTime(WARM + M + BACKSTOP);
                assertEquals(List.of("close +59s"), sent(restored, "fnal"));
            }
        }
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, Observation, Observation> clock0()
            throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(
                        new LinkClock(
                                Duration.ofMinutes(1),
                                Stagger.aligned(),
                                Duration.ofMillis(SETTLE),
                                Duration.ofMillis(BACKSTOP))),
                Observation::key,
                Types.STRING);
    }
}
