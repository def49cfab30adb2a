package org.longhaul.flink.functions.stats;

import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/** Only adds the window's bounds and label to the incrementally aggregated accumulator. */
public final class AddWindowBounds
        extends ProcessWindowFunction<LinkAccumulator, WindowedStats, String, TimeWindow> {
    private static final long serialVersionUID = 1L;
    private final String label;

    public AddWindowBounds(String label) {
        this.label = label;
    }

    @Override
    public void process(
            String key, Context ctx, Iterable<LinkAccumulator> accs, Collector<WindowedStats> out) {
        for (LinkAccumulator acc : accs) {
            out.collect(
                    new WindowedStats(
                            key, label, ctx.window().getStart(), ctx.window().getEnd(), acc));
        }
    }
}
