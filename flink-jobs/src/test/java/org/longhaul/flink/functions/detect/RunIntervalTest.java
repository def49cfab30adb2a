package org.longhaul.flink.functions.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import org.junit.jupiter.api.Test;
import org.longhaul.flink.testing.Samples;

class RunIntervalTest {

    @Test
    void aCountedIntervalKeepsWhatTheStallDetectorReads() {
        var r =
                RunInterval.of(
                        Samples.throughput(Samples.interval(SRC, DST, "r7", T0, 5, 10, 2.5e6)));
        assertEquals(new RunInterval(SRC, DST, "tcp", "r7", T0 + 10_000, 5.0, 10.0, 2.5e6), r);
        assertEquals(SRC + "|" + DST + "|r7", r.key());
    }

    @Test
    void omittedIntervalsAndSummariesAreNotIntervalsOfTheRun() {
        var omitted = Samples.interval(SRC, DST, "r7", T0, 0, 1, 1e6);
        omitted.put("omitted", true);
        assertNull(RunInterval.of(Samples.throughput(omitted)));
        assertNull(RunInterval.of(Samples.throughput(Samples.summary(SRC, DST, "r7", T0, 1e6))));
    }
}
