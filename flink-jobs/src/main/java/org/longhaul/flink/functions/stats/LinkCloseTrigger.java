package org.longhaul.flink.functions.stats;

import org.apache.flink.api.common.functions.Function;
import org.apache.flink.streaming.api.windowing.triggers.Trigger;
import org.apache.flink.streaming.api.windowing.triggers.TriggerResult;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;

/**
 * Flink's EventTimeTrigger (fire when the watermark passes the window's end), which also fires and
 * purges a window at once when a marker element reaches it: the link's own clock saying the window
 * is over ({@link LinkClock}).
 */
public final class LinkCloseTrigger<T> extends Trigger<T, TimeWindow> {
    private static final long serialVersionUID = 1L;

    /** Whether an element is a closing marker. */
    @FunctionalInterface
    public interface Marker<T> extends Function {
        boolean closes(T element);
    }

    private final Marker<T> marker;

    public LinkCloseTrigger(Marker<T> marker) {
        this.marker = marker;
    }

    @Override
    public TriggerResult onElement(T element, long ts, TimeWindow window, TriggerContext ctx) {
        if (marker.closes(element)) {
            return TriggerResult.FIRE_AND_PURGE;
        }
        if (window.maxTimestamp() <= ctx.getCurrentWatermark()) {
            return TriggerResult.FIRE;
        }
        ctx.registerEventTimeTimer(window.maxTimestamp());
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onProcessingTime(long time, TimeWindow window, TriggerContext ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, TimeWindow window, TriggerContext ctx) {
        return time == window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;
    }

    @Override
    public void clear(TimeWindow window, TriggerContext ctx) {
        ctx.deleteEventTimeTimer(window.maxTimestamp());
    }

    @Override
    public String toString() {
        return "LinkCloseTrigger";
    }
}
