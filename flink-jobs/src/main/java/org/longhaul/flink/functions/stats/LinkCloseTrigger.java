package org.longhaul.flink.functions.stats;

import java.time.Duration;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.streaming.api.windowing.triggers.Trigger;
import org.apache.flink.streaming.api.windowing.triggers.TriggerResult;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;

/**
 * Closes a link's window when the first of two clocks passes its end: the job-wide watermark (as
 * Flink's EventTimeTrigger), or the link's own clock, estimated from its data: a window whose
 * element of time {@code ts} arrived at processing time {@code t} is due at {@code t + (end - ts) +
 * grace} ({@link #dueAt}).
 *
 * <p>Why: the watermark is the slowest of hundreds of per-host topics less its out-of-orderness (2
 * min), so at fleet scale a minute closed 2.5-4 min after it ended, and never once its topics fell
 * silent (issue 45). A link's data arrive in the order of its runs, a latencybg result one minute
 * after its run started: by its own clock a link's minute is over one window after its first
 * element, whatever the other links do.
 *
 * <p>A window closed by its own clock fires and purges. An element of it arriving later (more than
 * the grace behind the link's clock, but not behind the watermark) starts the same window again: it
 * fires as a correction ({@link AddWindowBounds}), counted by the coarser windows but not
 * overwriting the point already written.
 */
public final class LinkCloseTrigger extends Trigger<Object, TimeWindow> {
    private static final long serialVersionUID = 1L;

    /** The processing time the window is due at by its link's clock; one timer per window. */
    static final ValueStateDescriptor<Long> DUE =
            new ValueStateDescriptor<>("link-close-due", LongSerializer.INSTANCE);

    private final long graceMs;

    /**
     * @param grace how long after a window's estimated end its link's clock closes it; it absorbs
     *     the jitter between a link's runs (a run posted later than its successor)
     */
    public LinkCloseTrigger(Duration grace) {
        if (grace.isNegative()) {
            throw new IllegalArgumentException("a negative grace: " + grace);
        }
        this.graceMs = grace.toMillis();
    }

    /**
     * When an element of event time {@code ts}, arrived at processing time {@code now}, makes its
     * window {@code [.., windowEnd)} due: its link's clock reads {@code ts} now and advances with
     * the wall clock.
     */
    public static long dueAt(long now, long ts, long windowEnd, long graceMs) {
        return now + Math.max(0, windowEnd - ts) + graceMs;
    }

    @Override
    public TriggerResult onElement(Object element, long ts, TimeWindow window, TriggerContext ctx)
            throws Exception {
        if (window.maxTimestamp() <= ctx.getCurrentWatermark()) {
            return TriggerResult.FIRE;
        }
        ctx.registerEventTimeTimer(window.maxTimestamp());
        long due = dueAt(ctx.getCurrentProcessingTime(), ts, window.getEnd(), graceMs);
        ValueState<Long> state = ctx.getPartitionedState(DUE);
        Long current = state.value();
        if (current == null || due < current) {
            if (current != null) {
                ctx.deleteProcessingTimeTimer(current);
            }
            ctx.registerProcessingTimeTimer(due);
            state.update(due);
        }
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onProcessingTime(long time, TimeWindow window, TriggerContext ctx)
            throws Exception {
        ctx.getPartitionedState(DUE).clear();
        return TriggerResult.FIRE_AND_PURGE;
    }

    @Override
    public TriggerResult onEventTime(long time, TimeWindow window, TriggerContext ctx) {
        return time == window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;
    }

    @Override
    public void clear(TimeWindow window, TriggerContext ctx) throws Exception {
        ctx.deleteEventTimeTimer(window.maxTimestamp());
        ValueState<Long> state = ctx.getPartitionedState(DUE);
        Long current = state.value();
        if (current != null) {
            ctx.deleteProcessingTimeTimer(current);
        }
        state.clear();
    }

    @Override
    public String toString() {
        return "LinkCloseTrigger(grace " + graceMs + " ms)";
    }
}
