package org.longhaul.flink.functions.confirm;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.util.Collector;
import org.longhaul.flink.functions.common.Fmt;
import org.longhaul.flink.functions.common.KeyedStateFunction;
import org.longhaul.flink.functions.common.RobustStats;
import org.longhaul.flink.records.Suspicion;

/**
 * Per link (key "src|dst"): a shift of its delay (the ping RTT, or one direction's one-way delay:
 * {@link DelayKind}) against the link's own recent level (the median of its last {@link
 * ConfirmParams#rttHistory()} readings), rttConsecutive readings in a row above (1 + rttRatio) ×
 * that and at least rttMinMs above it, is a suspicion (rtt_shift, owd_shift), reported once until
 * the delay is back. The level follows the link: once a shift is reported its readings enter the
 * history, so a new path's delay becomes the level within rttHistory readings.
 */
public final class DelayShiftDetector
        extends KeyedStateFunction<DelayReading, Suspicion, RttState> {
    private static final long serialVersionUID = 1L;

    private final ConfirmParams p;
    private final DelayKind kind;

    public DelayShiftDetector(ConfirmParams params, Duration stateTtl, DelayKind kind) {
        super(kind.state, RttState.class, kind.state, stateTtl);
        this.p = params;
        this.kind = kind;
    }

    @Override
    public void processElement(DelayReading r, Context ctx, Collector<Suspicion> out)
            throws Exception {
        cleanup.touch(ctx.timerService(), r.ts());
        RttState s = stateOr(RttState::new);
        Suspicion x = judge(s, r, p, kind);
        if (x != null) {
            out.collect(x);
        }
        state.update(s);
    }

    /** One reading against the link's level; the suspicion it raises, or null. */
    static Suspicion judge(RttState s, DelayReading r, ConfirmParams p, DelayKind kind) {
        double rtt = r.delayMs();
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
                ev.put(kind.valueKey, Fmt.round(rtt));
                ev.put(kind.levelKey, Fmt.round(level));
                out =
                        Suspicion.of(
                                r.src(),
                                r.dst(),
                                null,
                                r.ts(),
                                kind.reason,
                                String.format(
                                        "%s %s, %d %s in a row above the %s level of %s",
                                        kind.what,
                                        Fmt.ms(rtt),
                                        s.high,
                                        kind.readings,
                                        kind.whose,
                                        Fmt.ms(level)),
                                ev);
            }
            if (high && !s.shifted) {
                return out; // a high reading joins the level only once the shift is reported
            }
        }
        s.recent = RobustStats.append(s.recent, rtt, p.rttHistory());
        return out;
    }
}
