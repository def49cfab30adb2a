package org.longhaul.flink.functions;

import java.time.Duration;
import org.apache.flink.api.common.eventtime.BoundedOutOfOrdernessWatermarks;
import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.eventtime.WatermarksWithIdleness;
import org.longhaul.flink.records.RawMessage;

/**
 * Event time of a raw message: its {@code ts}. A message without a usable one will become a dead
 * letter; it gets {@link Long#MIN_VALUE} so that it never moves the watermark (a Kafka produce time
 * would push it to "now" and make a replay of older samples late). So does a message whose clock
 * {@link ClockSkew} judges skewed: an agent's clock an hour ahead must not make every other link's
 * samples late (it becomes a dead letter too, in ValidateFunction). A backfilled sample ({@link
 * History}) gets none either: its ts is its own, its event time is no one's.
 */
public final class RawTimestamps implements SerializableTimestampAssigner<RawMessage> {
    private static final long serialVersionUID = 1L;

    private final ClockSkew clock;

    public RawTimestamps(ClockSkew clock) {
        this.clock = clock;
    }

    @Override
    public long extractTimestamp(RawMessage message, long recordTimestamp) {
        if (message.history()) {
            return History.TIMESTAMP;
        }
        return message.eventTs() != null && !clock.skewed(message)
                ? message.eventTs()
                : Long.MIN_VALUE;
    }

    /**
     * The one watermark strategy of every raw source: bounded out-of-orderness, a partition silent
     * for {@code idleness} stops holding the watermark back, and messages without an event time are
     * silence ({@link TimedEventsOnly}).
     */
    public static WatermarkStrategy<RawMessage> strategy(
            Duration outOfOrderness, Duration idleness, ClockSkew clock) {
        return WatermarkStrategy.<RawMessage>forGenerator(
                        ctx ->
                                new TimedEventsOnly<>(
                                        new WatermarksWithIdleness<>(
                                                new BoundedOutOfOrdernessWatermarks<>(
                                                        outOfOrderness),
                                                idleness,
                                                ctx.getInputActivityClock())))
                .withTimestampAssigner(new RawTimestamps(clock));
    }
}
