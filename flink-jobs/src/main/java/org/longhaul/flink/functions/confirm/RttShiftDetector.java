package org.longhaul.flink.functions.confirm;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.longhaul.flink.functions.detect.CleanupTimer;
import org.longhaul.flink.functions.detect.Fmt;
import org.longhaul.flink.functions.detect.RobustStats;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.state.OneWriteType;

/**
 * Per link (key "src|dst"): a shift of the ping RTT against the link's own recent level (the median
 * of its last {@link ConfirmParams#rttHistory()} pings), rttConsecutive pings in a row above (1 +
 * rttRatio) × that and at least rttMinMs above it, is a suspicion (rtt_shift), reported once until
 * the RTT is back. The level follows the link: once a shift is reported its pings enter the
 * history, so a new path's RTT becomes the level within rttHistory pings.
 */
public final class RttShiftDetector extends KeyedProcessFunction<String, RttSample, Suspicion> {
    private static final long serialVersionUID = 1L;

    private final ConfirmParams p;
    private final Duration ttl;
    private transient ValueState<RttState> state;
    private transient CleanupTimer cleanup;

    public RttShiftDetector(ConfirmParams params, Duration stateTtl) {
        this.p = params;
        this.ttl = stateTtl;
    }

    @Override
    public void open(OpenContext context) {
        state =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "rtt-shift", OneWriteType.of(RttState.class)));
        cleanup = new CleanupTimer(getRuntimeContext(), "rtt-shift", ttl);
    }

    @Override
    public void processElement(RttSample ping, Context ctx, Collector<Suspicion> out)
            throws Exception {
        if (ping.rttAvgMs() == null || ping.rttAvgMs() <= 0) {
            return;
        }
        cleanup.touch(ctx.timerService(), ping.ts());
        RttState s = state.value() == null ? new RttState() : state.value();
        Suspicion x = judge(s, ping, p);
        if (x != null) {
            out.collect(x);
        }
        state.update(s);
    }

    /** One ping against the link's level; the suspicion it raises, or null. */
    static Suspicion judge(RttState s, RttSample ping, ConfirmParams p) {
        double rtt = ping.rttAvgMs();
        Suspicion out = null;
        if (s.recent.length >= Math.max(3, p.rttHistory() / 3)) {
            double level = RobustStats.median(s.recent);
            boolean high = rtt > (1 + p.rttRatio()) * level && rtt - level >= p.rttMinMs();
            s.high = high ? s.high + 1 : 0;
            if (!high) {
                s.shifted = false;
            } else if (s.high >= p.rttConsecutive() && !s.shifted) {
                s.shifted = true;
                Map<String, Object> ev = new LinkedHashMap<>();
                ev.put("rtt_ms", Fmt.round(rtt));
                ev.put("rtt_level_ms", Fmt.round(level));
                out =
                        Suspicion.of(
                                ping.src(),
                                ping.dst(),
                                null,
                                ping.ts(),
                                SuspicionReason.RTT_SHIFT,
                                String.format(
                                        "ping RTT %s, %d pings in a row above the link's level of %s",
                                        Fmt.ms(rtt), s.high, Fmt.ms(level)),
                                ev);
            }
            if (high && !s.shifted) {
                return out; // a high ping joins the level only once the shift is reported
            }
        }
        s.recent = RobustStats.append(s.recent, rtt, p.rttHistory());
        return out;
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Suspicion> out)
            throws Exception {
        if (cleanup.expired(ctx.timerService(), timestamp)) {
            state.clear();
            cleanup.clear();
        }
    }
}
