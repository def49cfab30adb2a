package org.longhaul.flink.functions.stats;

import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.base.BooleanSerializer;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Adds the window's bounds and label to the incrementally aggregated accumulator, and marks a
 * window's second and later firings as corrections: a window its link's clock closed ({@link
 * LinkCloseTrigger}) that received another element before the watermark passed it fires again with
 * that element alone.
 */
public final class AddWindowBounds
        extends ProcessWindowFunction<LinkAccumulator, WindowedStats, String, TimeWindow> {
    private static final long serialVersionUID = 1L;

    /** Whether this window has fired before; kept until the watermark passes the window. */
    static final ValueStateDescriptor<Boolean> FIRED =
            new ValueStateDescriptor<>("fired", BooleanSerializer.INSTANCE);

    private final String label;

    public AddWindowBounds(String label) {
        this.label = label;
    }

    @Override
    public void process(
            String key, Context ctx, Iterable<LinkAccumulator> accs, Collector<WindowedStats> out)
            throws Exception {
        ValueState<Boolean> fired = ctx.windowState().getState(FIRED);
        boolean correction = fired.value() != null;
        fired.update(true);
        for (LinkAccumulator acc : accs) {
            if (acc.samples == 0 && acc.runs == 0) {
                continue; // a marker alone: nothing of the link's came in
            }
            out.collect(
                    new WindowedStats(
                            key,
                            label,
                            ctx.window().getStart(),
                            ctx.window().getEnd(),
                            acc,
                            correction));
        }
    }

    @Override
    public void clear(Context ctx) {
        ctx.windowState().getState(FIRED).clear();
    }
}
