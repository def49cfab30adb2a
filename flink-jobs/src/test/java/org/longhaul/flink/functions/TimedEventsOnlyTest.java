package org.longhaul.flink.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.apache.flink.api.common.eventtime.BoundedOutOfOrdernessWatermarks;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarksWithIdleness;
import org.apache.flink.util.clock.ManualClock;
import org.junit.jupiter.api.Test;

/**
 * A partition that carries only messages without event time goes idle; timed ones still drive it.
 */
class TimedEventsOnlyTest {
    private static final Duration IDLENESS = Duration.ofSeconds(3);

    /** What a split's generator last said. */
    private static final class Seen implements WatermarkOutput {
        long watermark = Long.MIN_VALUE;
        boolean idle;

        @Override
        public void emitWatermark(Watermark w) {
            watermark = w.getTimestamp();
            idle = false;
        }

        @Override
        public void markIdle() {
            idle = true;
        }

        @Override
        public void markActive() {
            idle = false;
        }
    }

    private final ManualClock clock = new ManualClock();
    private final TimedEventsOnly<String> generator =
            new TimedEventsOnly<>(
                    new WatermarksWithIdleness<>(
                            new BoundedOutOfOrdernessWatermarks<>(Duration.ofSeconds(1)),
                            IDLENESS,
                            clock));
    private final Seen out = new Seen();

    /**
     * One message every second for ten seconds, each with the given timestamp, watermarks asked
     * after each.
     */
    private void feed(long timestamp) {
        for (int i = 0; i < 10; i++) {
            generator.onEvent("m", timestamp, out);
            clock.advanceTime(Duration.ofSeconds(1));
            generator.onPeriodicEmit(out);
        }
    }

    @Test
    void aPartitionOfOnlyWithheldTimestampsGoesIdle() {
        feed(Long.MIN_VALUE);
        assertTrue(
                out.idle, "a partition of skewed or ts-less messages must not hold the watermark");
        assertEquals(Long.MIN_VALUE, out.watermark);
    }

    @Test
    void timedMessagesStillMoveTheWatermarkAndKeepThePartitionActive() {
        feed(1_000_000L);
        assertFalse(out.idle);
        assertEquals(1_000_000L - 1_000 - 1, out.watermark);
    }
}
