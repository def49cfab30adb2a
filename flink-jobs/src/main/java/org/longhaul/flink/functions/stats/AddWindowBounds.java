package org.longhaul.flink.functions.stats;

import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.base.BooleanSerializer;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;
import org.longhaul.flink.state.OneWriteType;

/**
 * Adds the window's bounds and label to the incrementally aggregated accumulator. A window its
 * link's clock closed ({@link LinkCloseTrigger}) can fire again, with what reached it after that
 * alone, until the watermark passes it: such a firing is a {@link WindowedStats.Part#CORRECTION}
 * for the coarser windows, and the window as written so far merged with it is a {@link
 * WindowedStats.Part#REWRITE} of the window's point (same link, window and time: InfluxDB keeps the
 * later values). So a run the clock closed its minute without (a sample sent again after a broker's
 * failover, behind its link's newer ones) is in the minute's point as well as in the hour.
 */
public final class AddWindowBounds
        extends ProcessWindowFunction<LinkAccumulator, WindowedStats, String, TimeWindow> {
    private static final long serialVersionUID = 1L;

    /** Whether this window has fired before; kept until the watermark passes the window. */
    static final ValueStateDescriptor<Boolean> FIRED =
            new ValueStateDescriptor<>("fired", BooleanSerializer.INSTANCE);

    /** What this window's point holds, while the window may fire again. */
    static final ValueStateDescriptor<LinkAccumulator> WRITTEN =
            new ValueStateDescriptor<>("written", OneWriteType.of(LinkAccumulator.class));

    private final String label;

    public AddWindowBounds(String label) {
        this.label = label;
    }

    @Override
    public void process(
            String key, Context ctx, Iterable<LinkAccumulator> accs, Collector<WindowedStats> out)
            throws Exception {
        TimeWindow w = ctx.window();
        // fired before the watermark passed it (by its link's clock): it may fire again
        boolean again = ctx.currentWatermark() < w.maxTimestamp();
        ValueState<Boolean> fired = ctx.windowState().getState(FIRED);
        ValueState<LinkAccumulator> written = ctx.windowState().getState(WRITTEN);
        boolean correction = fired.value() != null;
        for (LinkAccumulator acc : accs) {
            if (acc.samples == 0 && acc.runs == 0) {
                continue; // a marker alone: nothing of the link's came in
            }
            if (!correction) {
                out.collect(stats(key, w, acc, WindowedStats.Part.WHOLE));
                if (again) {
                    written.update(new LinkAccumulator().merge(acc));
                }
                continue;
            }
            out.collect(
                    new WindowedStats(
                            key,
                            label,
                            w.getStart(),
                            w.getEnd(),
                            acc,
                            WindowedStats.Part.CORRECTION));
            LinkAccumulator point = written.value();
            if (point == null) {
                continue; // fired first by an earlier version, which kept no point: hour and day
                // only
            }
            point.merge(acc);
            written.update(point);
            out.collect(
                    stats(key, w, new LinkAccumulator().merge(point), WindowedStats.Part.REWRITE));
        }
        if (again) {
            fired.update(true);
        }
    }

    private WindowedStats stats(
            String key, TimeWindow w, LinkAccumulator acc, WindowedStats.Part part) {
        return new WindowedStats(key, label, w.getStart(), w.getEnd(), acc, part);
    }

    @Override
    public void clear(Context ctx) {
        ctx.windowState().getState(FIRED).clear();
        ctx.windowState().getState(WRITTEN).clear();
    }
}
