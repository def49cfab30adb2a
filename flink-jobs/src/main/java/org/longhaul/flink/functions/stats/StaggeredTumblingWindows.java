package org.longhaul.flink.functions.stats;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.functions.Function;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.windowing.assigners.WindowAssigner;
import org.apache.flink.streaming.api.windowing.triggers.EventTimeTrigger;
import org.apache.flink.streaming.api.windowing.triggers.Trigger;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;

/**
 * Tumbling event-time windows of one size whose start is shifted per key by {@link Stagger}:
 * TumblingEventTimeWindows with an offset taken from the element's key instead of one offset for
 * all. Fires on the watermark like Flink's own.
 */
public final class StaggeredTumblingWindows<T> extends WindowAssigner<T, TimeWindow> {
    private static final long serialVersionUID = 1L;
    private final long size;
    private final Stagger stagger;
    private final KeySelector<T, String> key;
    private final OwnTime<T> ownTime;

    /** The time an element names for itself, or null to take its record's timestamp. */
    @FunctionalInterface
    public interface OwnTime<T> extends Function {
        Long of(T element);
    }

    public StaggeredTumblingWindows(Duration size, Stagger stagger, KeySelector<T, String> key) {
        this(size, stagger, key, e -> null);
    }

    /**
     * @param ownTime the time of an element that names its own window, whatever its record's
     *     timestamp: {@link LinkClock}'s closing markers
     */
    public StaggeredTumblingWindows(
            Duration size, Stagger stagger, KeySelector<T, String> key, OwnTime<T> ownTime) {
        if (stagger.spread().compareTo(size) > 0) {
            throw new IllegalArgumentException(
                    "a stagger of " + stagger.spread() + " exceeds the window of " + size);
        }
        this.size = size.toMillis();
        this.stagger = stagger;
        this.key = key;
        this.ownTime = ownTime;
    }

    @Override
    public Collection<TimeWindow> assignWindows(
            T element, long timestamp, WindowAssignerContext context) {
        Long own = ownTime.of(element);
        if (own != null) {
            timestamp = own;
        }
        if (timestamp == Long.MIN_VALUE) {
            throw new IllegalStateException(
                    "record has no event-time timestamp; is the watermark strategy set?");
        }
        long start =
                TimeWindow.getWindowStartWithOffset(
                        timestamp, stagger.offsetMs(keyOf(element)), size);
        return List.of(new TimeWindow(start, start + size));
    }

    private String keyOf(T element) {
        try {
            return key.getKey(element);
        } catch (Exception e) {
            throw new IllegalStateException("no key for " + element, e);
        }
    }

    @Override
    public Trigger<T, TimeWindow> getDefaultTrigger() {
        @SuppressWarnings("unchecked")
        Trigger<T, TimeWindow> t =
                (Trigger<T, TimeWindow>) (Trigger<?, TimeWindow>) EventTimeTrigger.create();
        return t;
    }

    @Override
    public TypeSerializer<TimeWindow> getWindowSerializer(ExecutionConfig config) {
        return new TimeWindow.Serializer();
    }

    @Override
    public boolean isEventTime() {
        return true;
    }

    @Override
    public String toString() {
        return "StaggeredTumblingWindows(" + size + ", " + stagger.spread() + ")";
    }
}
