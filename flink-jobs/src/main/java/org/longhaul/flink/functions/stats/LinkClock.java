package org.longhaul.flink.functions.stats;

import java.time.Duration;
import java.util.Arrays;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.array.LongPrimitiveArraySerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Each link's own clock for its one-minute statistics: passes every observation on, and sends a
 * {@link Observation#closing} marker into a minute window once the link's own data have passed that
 * minute's end, which {@link LinkCloseTrigger} fires at once. The job-wide watermark still closes
 * what this does not.
 *
 * <p>Why: the watermark is the slowest of hundreds of per-host topics less its out-of-orderness (2
 * min). At 250 pScheduler hosts a link's minute reached InfluxDB 154 s (p50) and 236 s (p99) after
 * its result was taken, and when the fleet fell silent its last minutes never closed (issue 45,
 * docs/benchmarks.md, <i>The fleet</i>). A link's own records come in the order of its runs: the
 * first record past a minute's end says that minute is over for that link.
 *
 * <ul>
 *   <li><b>Passed</b>: once the link's newest record is past a window's end, the window closes
 *       {@code settle} later (processing time), for the rest of that run's records, which come
 *       together (an iperf3 run's intervals and summary, a summary stamped with its run's start).
 *   <li><b>Silent</b>: a link that sends nothing more closes its open window once its clock would
 *       be {@code backstop} past the window's end, reckoned on the wall clock from its newest
 *       record: the delay the watermark tolerates ({@code --out-of-orderness}) tolerated per link;
 *       but not while every link of this instance is silent (a broker's outage, whose runs wait in
 *       the agents' spools, or the end of the data): then the minutes wait, as the watermark does.
 *   <li><b>Out of order</b>: a record of a window this clock already closed opens it again, and the
 *       window closes {@code settle} later with every record of it that came meanwhile: it fires
 *       again with those alone, as one correction ({@link AddWindowBounds}) that the hour and the
 *       day count. Before, each such record was a correction of its own, and the minute was written
 *       again for each: with 200 agents' topics at 10k samples/s, 13,599 of 26,570 minutes were
 *       written more than once, up to 91 times (issue 45, docs/benchmarks.md, <i>Per-site
 *       topics</i>).
 *   <li><b>Restores</b>: for {@code backstop} after the function opens from a checkpoint or a
 *       savepoint, nothing closes by the wall clock: the records after it are read again first. A
 *       fresh start has nothing to read again and closes at once: before, a fresh job held every
 *       minute passed in its first {@code backstop} of data until that had passed (at 500
 *       pScheduler hosts, 9,818 of 128,700 minutes reached Kafka 20–61 s late, all in the fleet's
 *       first two minutes: issue 45, docs/benchmarks.md, <i>The knee</i>).
 * </ul>
 *
 * <p>Markers are sent only for windows the watermark has not passed, so none is ever late: this
 * function is chained to the window operator ({@code reinterpretAsKeyedStream}) and sees the same
 * watermark.
 */
public final class LinkClock extends KeyedProcessFunction<String, Observation, Observation>
        implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;

    private static final ValueStateDescriptor<Long> CLOCK =
            new ValueStateDescriptor<>("link-clock", LongSerializer.INSTANCE);
    private static final ValueStateDescriptor<long[]> OPEN =
            new ValueStateDescriptor<>("link-open-windows", LongPrimitiveArraySerializer.INSTANCE);
    private static final ValueStateDescriptor<Long> CLOSED_END =
            new ValueStateDescriptor<>("link-closed-end", LongSerializer.INSTANCE);
    private static final ValueStateDescriptor<Long> TIMER =
            new ValueStateDescriptor<>("link-timer", LongSerializer.INSTANCE);

    private final long size;
    private final Stagger stagger;
    private final long settle;
    private final long backstop;

    private transient ValueState<Long> clock;
    private transient ValueState<long[]> open;
    private transient ValueState<Long> closedEnd;
    private transient ValueState<Long> timer;
    private transient long openedAt;

    /** Opened from a checkpoint or a savepoint: the records after it come again first. */
    private transient boolean restored;

    /** When this instance last took a record of any link (processing time). */
    private transient long lastHeard;

    private transient Counter byData;
    private transient Counter bySilence;
    private transient Counter corrections;

    public LinkClock(Duration size, Stagger stagger, Duration settle, Duration backstop) {
        this.size = size.toMillis();
        this.stagger = stagger;
        this.settle = settle.toMillis();
        this.backstop = backstop.toMillis();
    }

    @Override
    public void open(OpenContext ctx) {
        clock = getRuntimeContext().getState(CLOCK);
        open = getRuntimeContext().getState(OPEN);
        closedEnd = getRuntimeContext().getState(CLOSED_END);
        timer = getRuntimeContext().getState(TIMER);
        openedAt = Long.MIN_VALUE; // the first call's processing time (the harness's in tests)
        var m = getRuntimeContext().getMetricGroup();
        byData = m.counter("statsWindowsClosedByLinkData");
        bySilence = m.counter("statsWindowsClosedByLinkSilence");
        corrections = m.counter("statsCorrections");
    }

    @Override
    public void initializeState(FunctionInitializationContext ctx) {
        restored = ctx.isRestored();
    }

    @Override
    public void snapshotState(FunctionSnapshotContext ctx) {
        // the clock's state is keyed state, snapshotted by the operator
    }

    /** When this instance first ran, by the timer service's clock. */
    private long openedAt(TimerService time) {
        if (openedAt == Long.MIN_VALUE) {
            openedAt = time.currentProcessingTime();
        }
        return openedAt;
    }

    @Override
    public void processElement(Observation o, Context ctx, Collector<Observation> out)
            throws Exception {
        openedAt(ctx.timerService());
        lastHeard = ctx.timerService().currentProcessingTime();
        out.collect(o);
        Long ts = ctx.timestamp();
        if (ts == null || o.closes()) {
            return;
        }
        String key = ctx.getCurrentKey();
        long end = TimeWindow.getWindowStartWithOffset(ts, stagger.offsetMs(key), size) + size;
        if (end - 1 <= ctx.timerService().currentWatermark()) {
            return; // late: the window operator makes it a dead letter
        }
        Long closed = closedEnd.value();
        if (closed != null && end <= closed) {
            // a window this clock closed opens again, and closes a settle later with every
            // record of it that came meanwhile: one correction, not one a record
            corrections.inc();
        }
        long[] windows = open.value();
        if (windows == null || Arrays.binarySearch(windows, end) < 0) {
            windows = with(windows, end);
            open.update(windows);
        }
        Long c = clock.value();
        long now = Math.max(c == null ? Long.MIN_VALUE : c, ts);
        if (c == null || now > c) {
            clock.update(now);
        }
        arm(ctx, windows, now);
    }

    /** Sets the one timer: settle after now when a window is passed, else the silence backstop. */
    private void arm(Context ctx, long[] windows, long now) throws Exception {
        long wall = ctx.timerService().currentProcessingTime();
        Long current = timer.value();
        long due;
        if (windows[0] <= now) {
            due = wall + settle;
            if (current != null && current <= due) {
                return;
            }
        } else {
            due = wall + (windows[0] - now) + backstop;
        }
        if (current != null) {
            ctx.timerService().deleteProcessingTimeTimer(current);
        }
        ctx.timerService().registerProcessingTimeTimer(due);
        timer.update(due);
    }

    @Override
    public void onTimer(long time, OnTimerContext ctx, Collector<Observation> out)
            throws Exception {
        timer.clear();
        long[] windows = open.value();
        if (windows == null) {
            return;
        }
        long quiet = openedAt(ctx.timerService()) + backstop;
        if (restored && time < quiet) {
            // restored: the records after the checkpoint come again first
            ctx.timerService().registerProcessingTimeTimer(quiet);
            timer.update(quiet);
            return;
        }
        long now = clock.value();
        boolean passed = windows[0] <= now;
        if (!passed && time - lastHeard >= backstop) {
            // every link of this instance silent: a broker's outage holding the agents' runs in
            // their spools, or the end of the data. Their minutes wait, as the watermark does
            ctx.timerService().registerProcessingTimeTimer(time + backstop);
            timer.update(time + backstop);
            return;
        }
        long watermark = ctx.timerService().currentWatermark();
        String key = ctx.getCurrentKey();
        Long closed = closedEnd.value();
        long newest = closed == null ? Long.MIN_VALUE : closed;
        int kept = 0;
        for (long end : windows) {
            if (passed && end > now) {
                windows[kept++] = end; // still the link's current window
                continue;
            }
            if (end - 1 > watermark) {
                out.collect(Observation.closing(key, end - 1));
                (passed ? byData : bySilence).inc();
            }
            newest = Math.max(newest, end);
        }
        closedEnd.update(newest);
        if (kept == 0) {
            open.clear();
            return;
        }
        long[] left = Arrays.copyOf(windows, kept);
        open.update(left);
        ctx.timerService().registerProcessingTimeTimer(time + (left[0] - now) + backstop);
        timer.update(time + (left[0] - now) + backstop);
    }

    /** Sorted window ends with one more. */
    private static long[] with(long[] ends, long end) {
        if (ends == null) {
            return new long[] {end};
        }
        long[] out = Arrays.copyOf(ends, ends.length + 1);
        out[ends.length] = end;
        Arrays.sort(out);
        return out;
    }
}
