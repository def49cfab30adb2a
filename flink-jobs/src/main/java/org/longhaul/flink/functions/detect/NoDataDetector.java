package org.longhaul.flink.functions.detect;

import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.util.Collector;
import org.longhaul.flink.functions.common.Fmt;
import org.longhaul.flink.functions.common.KeyedStateFunction;
import org.longhaul.flink.functions.common.RobustStats;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventKind;

/**
 * no_data / data_resumed per probe of a link (key "src|dst|probe_id"): the usual gap between its
 * runs is learned (median of the recent gaps; a configured default until enough are seen) and an
 * event-time timer is armed at last run + max(factor × gap, minSilence). If it fires, the probe has
 * gone silent; its next run is data_resumed (the silence itself is not learned as a gap).
 *
 * <p>End of a bounded input: Flink then fires every timer with a final watermark of Long.MAX_VALUE.
 * The end of a file is not evidence of silence, so such a timer raises no_data only if this subtask
 * saw data at least out-of-orderness past the deadline (the data itself proves time passed, as the
 * watermark would have); otherwise it is ignored. With a continuous input the watermark never
 * reaches MAX_VALUE and every timer counts. This keeps a replay's result independent of when
 * periodic watermarks happened to be emitted.
 */
public final class NoDataDetector extends KeyedStateFunction<Heartbeat, Event, SilenceState> {
    private static final long serialVersionUID = 1L;

    private final NoDataParams p;
    private final long outOfOrdernessMs;
    private transient long maxSeen;

    public NoDataDetector(NoDataParams params, Duration stateTtl, Duration outOfOrderness) {
        super("silence", SilenceState.class, "no-data", stateTtl);
        this.p = params;
        this.outOfOrdernessMs = outOfOrderness.toMillis();
    }

    @Override
    public void open(OpenContext context) {
        super.open(context);
        maxSeen = Long.MIN_VALUE;
    }

    @Override
    public void processElement(Heartbeat hb, Context ctx, Collector<Event> out) throws Exception {
        maxSeen = Math.max(maxSeen, hb.ts());
        cleanup.touch(ctx.timerService(), hb.ts());
        SilenceState s = stateOr(SilenceState::new);
        s.kind = hb.kind();
        if (s.silent) {
            out.collect(resumed(hb, s));
            s.silent = false;
            s.episodeId = null;
        } else if (s.lastTs != Long.MIN_VALUE && hb.ts() > s.lastTs) {
            s.gapsMs = RobustStats.append(s.gapsMs, hb.ts() - s.lastTs, p.gapHistory());
        }
        s.lastTs = Math.max(s.lastTs, hb.ts());
        arm(s, ctx);
        state.update(s);
    }

    private void arm(SilenceState s, Context ctx) {
        double expected =
                s.gapsMs.length >= p.minGaps()
                        ? RobustStats.median(s.gapsMs)
                        : p.defaultInterval().isZero()
                                ? Double.NaN
                                : p.defaultInterval().toMillis();
        if (Double.isNaN(expected)) {
            return;
        }
        long deadline =
                s.lastTs + (long) Math.max(p.factor() * expected, p.minSilence().toMillis());
        if (deadline != s.deadline) {
            if (s.deadline != Long.MIN_VALUE) {
                ctx.timerService().deleteEventTimeTimer(s.deadline);
            }
            ctx.timerService().registerEventTimeTimer(deadline);
            s.deadline = deadline;
        }
        s.expectedMs = expected;
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Event> out) throws Exception {
        SilenceState s = state.value();
        if (s != null && timestamp == s.deadline) {
            s.deadline = Long.MIN_VALUE;
            boolean endOfInput = ctx.timerService().currentWatermark() == Long.MAX_VALUE;
            if (!s.silent && (!endOfInput || timestamp <= maxSeen - outOfOrdernessMs)) {
                s.silent = true;
                s.episodeId = EventKind.NO_DATA.wire() + ":" + ctx.getCurrentKey() + "@" + s.lastTs;
                out.collect(noData(ctx.getCurrentKey(), s, timestamp));
            }
            state.update(s);
        }
        super.onTimer(timestamp, ctx, out);
    }

    private static Event noData(String key, SilenceState s, long at) {
        String[] k = key.split("\\|", 3);
        double silentFor = (at - s.lastTs) / 1000.0;
        return Event.builder(EventKind.NO_DATA, k[0], k[1], Detectors.NO_DATA, at)
                .severity("warning")
                .episode(s.episodeId)
                .message(
                        String.format(
                                "no %s runs from probe %s for %s (usually every %s)",
                                s.kind,
                                k[2],
                                Fmt.seconds(silentFor),
                                Fmt.seconds(s.expectedMs / 1000)))
                .evidence("probe", k[2])
                .evidence("stream", s.kind)
                .evidence("last_seen_ts", s.lastTs)
                .evidence("silent_for_s", Fmt.round(silentFor))
                .evidence("expected_interval_s", Fmt.round(s.expectedMs / 1000))
                .build();
    }

    private static Event resumed(Heartbeat hb, SilenceState s) {
        double silentFor = (hb.ts() - s.lastTs) / 1000.0;
        return Event.builder(EventKind.DATA_RESUMED, hb.src(), hb.dst(), Detectors.NO_DATA, hb.ts())
                .severity("info")
                .episode(s.episodeId)
                .message(
                        String.format(
                                "%s runs from probe %s resumed after %s of silence",
                                hb.kind(), hb.probeId(), Fmt.seconds(silentFor)))
                .evidence("probe", hb.probeId())
                .evidence("stream", hb.kind())
                .evidence("silent_for_s", Fmt.round(silentFor))
                .build();
    }
}
