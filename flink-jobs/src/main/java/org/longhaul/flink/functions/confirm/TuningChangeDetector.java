package org.longhaul.flink.functions.confirm;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.longhaul.flink.functions.common.CleanupTimer;
import org.longhaul.flink.records.HostSnapshot;
import org.longhaul.flink.records.Suspicion;
import org.longhaul.flink.records.SuspicionReason;

/**
 * Per link (key "src|dst"): a change of the sender's TCP tuning between two host snapshots (the
 * buffer maxima, autotuning's maxima, the congestion control) is a suspicion (host_tuning_change):
 * what the link carries may have changed with it. The first snapshot only sets the reference.
 */
public final class TuningChangeDetector
        extends KeyedProcessFunction<String, HostSnapshot, Suspicion> {
    private static final long serialVersionUID = 1L;

    private final Duration ttl;
    private transient ValueState<String> last;
    private transient CleanupTimer cleanup;

    public TuningChangeDetector(Duration stateTtl) {
        this.ttl = stateTtl;
    }

    @Override
    public void open(OpenContext context) {
        last = getRuntimeContext().getState(new ValueStateDescriptor<>("tuning", Types.STRING));
        cleanup = new CleanupTimer(getRuntimeContext(), "tuning", ttl);
    }

    /** What of a snapshot bounds a TCP run, in one comparable line. */
    static String tuning(HostSnapshot h) {
        return String.format(
                "tcp_wmem max %d, tcp_rmem max %d, wmem_max %d, rmem_max %d, congestion %s",
                h.autotuneSendMax(),
                h.autotuneReceiveMax(),
                h.wmemMax(),
                h.rmemMax(),
                h.congestionControl());
    }

    @Override
    public void processElement(HostSnapshot h, Context ctx, Collector<Suspicion> out)
            throws Exception {
        cleanup.touch(ctx.timerService(), h.ts());
        String now = tuning(h);
        String before = last.value();
        last.update(now);
        if (before != null && !before.equals(now)) {
            Map<String, Object> ev = new LinkedHashMap<>();
            ev.put("tuning_before", before);
            ev.put("tuning_after", now);
            out.collect(
                    Suspicion.of(
                            h.src(),
                            h.dst(),
                            null,
                            h.ts(),
                            SuspicionReason.HOST_TUNING_CHANGE,
                            "the sender's TCP tuning changed from " + before + " to " + now,
                            ev));
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Suspicion> out)
            throws Exception {
        cleanup.clearIfExpired(ctx.timerService(), timestamp, last);
    }
}
