package org.longhaul.flink.functions.detect;

import org.apache.flink.util.Collector;
import org.longhaul.flink.functions.common.Fmt;
import org.longhaul.flink.functions.common.KeyedStateFunction;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventKind;

/**
 * A run that had throughput and then moves (near) zero bytes for at least {@link
 * StallParams#minSeconds()} consecutive seconds has stalled (seed 000: 39.6 Mbit/s, then 0 bytes
 * for 35 s, a burst, then 0 bytes again). One stall event per run, raised by the interval that
 * crosses the threshold. Keyed by "src|dst|run_id"; fed with counted interval records in their run
 * order (one link's records share a Kafka partition). State: one small record per running run,
 * dropped {@link StallParams#runIdle()} after the run's last interval. Input: the {@link
 * RunInterval} of each counted interval.
 */
public final class StallDetector
        extends KeyedStateFunction<RunInterval, Event, StallDetector.RunProgress> {
    private static final long serialVersionUID = 1L;

    /** Progress of one run: the peak rate so far and the current zero stretch (NaN when none). */
    public record RunProgress(double peakBps, double stallStartS, boolean reported) {}

    private final StallParams params;

    public StallDetector(StallParams params) {
        super("run-progress", RunProgress.class, "stall", params.runIdle());
        this.params = params;
    }

    @Override
    public void processElement(RunInterval interval, Context ctx, Collector<Event> out)
            throws Exception {
        cleanup.touch(ctx.timerService(), interval.ts());
        RunProgress run = state.value();
        if (run == null) {
            run = new RunProgress(0, Double.NaN, false);
        }
        double bps = interval.bitsPerSecond();
        boolean hadThroughput = run.peakBps() > params.zeroBps();
        boolean zero = bps <= Math.max(params.zeroBps(), params.zeroFraction() * run.peakBps());
        if (!zero || !hadThroughput) {
            state.update(new RunProgress(Math.max(run.peakBps(), bps), Double.NaN, run.reported()));
            return;
        }
        double start = Double.isNaN(run.stallStartS()) ? interval.startS() : run.stallStartS();
        double stalled = interval.endS() - start;
        boolean report = !run.reported() && stalled >= params.minSeconds();
        state.update(new RunProgress(run.peakBps(), start, run.reported() || report));
        if (report) {
            out.collect(stallEvent(interval, run.peakBps(), start, stalled));
        }
    }

    static Event stallEvent(RunInterval at, double peakBps, double startS, double stalledS) {
        return Event.builder(EventKind.STALL, at.src(), at.dst(), Detectors.STALL, at.ts())
                .severity("warning")
                .protocol(at.protocol())
                .message(
                        String.format(
                                "run %s stalled: no data for %s from %s into the run, after %s",
                                at.runId(),
                                Fmt.seconds(stalledS),
                                Fmt.seconds(startS),
                                Fmt.bps(peakBps)))
                .evidence("run_id", at.runId())
                .evidence("stalled_s", Fmt.round(stalledS))
                .evidence("stall_start_s", Fmt.round(startS))
                .evidence("peak_bps", Fmt.round(peakBps))
                .evidence("observed_bps", Fmt.round(at.bitsPerSecond()))
                .build();
    }
}
