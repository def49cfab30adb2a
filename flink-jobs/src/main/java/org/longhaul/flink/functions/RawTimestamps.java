package org.longhaul.flink.functions;

import java.time.Duration;
import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.longhaul.flink.records.RawMessage;

/**
 * Event time of a raw message: its {@code ts}. A message without a usable one will become a dead
 * letter; it gets {@link Long#MIN_VALUE} so that it never moves the watermark (a Kafka produce
 * time would push it to "now" and make a replay of older samples late).
 */
public final class RawTimestamps implements SerializableTimestampAssigner<RawMessage> {
    private static final long serialVersionUID = 1L;

    @Override
    public long extractTimestamp(RawMessage message, long recordTimestamp) {
        return message.eventTs() != null ? message.eventTs() : Long.MIN_VALUE;
    }

    /** The one watermark strategy of every raw source. */
    public static WatermarkStrategy<RawMessage> strategy(Duration outOfOrderness, Duration idleness) {
        return WatermarkStrategy.<RawMessage>forBoundedOutOfOrderness(outOfOrderness)
                .withTimestampAssigner(new RawTimestamps())
                .withIdleness(idleness);
    }
}
