package org.longhaul.flink.functions;

import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * A watermark generator that hears only messages with an event time. A message whose timestamp
 * RawTimestamps withheld ({@link Long#MIN_VALUE}: no usable ts, or a clock judged skewed) is no
 * evidence of time passing, and not of activity either: a partition that carries nothing else (a
 * host whose clock is an hour behind, alone in its partition) goes idle after the idleness timeout
 * instead of holding every window of the job back for as long as the host keeps sending.
 */
public final class TimedEventsOnly<T> implements WatermarkGenerator<T> {
    private final WatermarkGenerator<T> inner;

    public TimedEventsOnly(WatermarkGenerator<T> inner) {
        this.inner = inner;
    }

    @Override
    public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {
        if (eventTimestamp != Long.MIN_VALUE) {
            inner.onEvent(event, eventTimestamp, output);
        }
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        inner.onPeriodicEmit(output);
    }
}
