package org.longhaul.flink.functions.detect;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.longhaul.flink.functions.common.CleanupTimer;
import org.longhaul.flink.functions.common.RobustStats;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.HostSnapshot;
import org.longhaul.flink.state.OneWriteType;

/**
 * diagnosis per link (key "src|dst") from TCP run summaries, host snapshots and pings, three topics
 * whose records interleave arbitrarily: inputs wait in state until the watermark passes their ts
 * and are then handled in event-time order (host and ping before a run of the same ts), so the
 * verdict does not depend on arrival order. A late input is handled at once. Emits when a probe
 * becomes window- or loss-limited and when it stops being so ({@link ProbeHistory#observe}); see
 * {@link Diagnosis} for the per-run rule.
 */
public final class DiagnosisDetector extends KeyedProcessFunction<String, DiagnosisInput, Event> {
    private static final long serialVersionUID = 1L;

    private final DiagnosisParams p;
    private final Duration ttl;
    private transient MapState<Long, List<DiagnosisInput>> pending;
    private transient ValueState<HostSnapshot> host;
    private transient ValueState<Double> pingRtt;
    private transient MapState<String, ProbeHistory> probes;
    private transient CleanupTimer cleanup;

    public DiagnosisDetector(DiagnosisParams params, Duration stateTtl) {
        this.p = params;
        this.ttl = stateTtl;
    }

    @Override
    public void open(OpenContext context) {
        var rc = getRuntimeContext();
        // a time's inputs are a list added to in place; an input is never changed, so the heap
        // backend's copy of a link's pending runs at a checkpoint copies the lists, not the inputs
        pending =
                OneWriteType.mapState(
                        rc,
                        "diagnosis-pending",
                        Types.LONG,
                        Types.LIST(
                                OneWriteType.unchanged(TypeInformation.of(DiagnosisInput.class))));
        host = OneWriteType.valueState(rc, "host", HostSnapshot.class);
        pingRtt = rc.getState(new ValueStateDescriptor<>("ping-rtt", Types.DOUBLE));
        probes = OneWriteType.mapState(rc, "probes", Types.STRING, ProbeHistory.class);
        cleanup = new CleanupTimer(rc, "diagnosis", ttl);
    }

    @Override
    public void processElement(DiagnosisInput in, Context ctx, Collector<Event> out)
            throws Exception {
        cleanup.touch(ctx.timerService(), in.ts());
        if (in.ts() <= ctx.timerService().currentWatermark()) {
            handle(in, out);
            return;
        }
        List<DiagnosisInput> at = pending.get(in.ts());
        List<DiagnosisInput> list = at == null ? new ArrayList<>() : at;
        list.add(in);
        pending.put(in.ts(), list);
        ctx.timerService().registerEventTimeTimer(in.ts());
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Event> out) throws Exception {
        List<DiagnosisInput> due = pending.get(timestamp);
        if (due != null) {
            pending.remove(timestamp);
            List<DiagnosisInput> ordered = new ArrayList<>(due);
            ordered.sort(Comparator.comparingInt(DiagnosisInput::rank));
            for (DiagnosisInput in : ordered) {
                handle(in, out);
            }
        }
        cleanup.clearIfExpired(ctx.timerService(), timestamp, pending, host, pingRtt, probes);
    }

    private void handle(DiagnosisInput in, Collector<Event> out) throws Exception {
        if (in.host() != null) {
            host.update(in.host());
        } else if (in.ping() != null) {
            pingRtt.update(in.ping().rttAvgMs());
        } else {
            diagnose(in, out);
        }
    }

    private void diagnose(DiagnosisInput in, Collector<Event> out) throws Exception {
        var run = in.run();
        ProbeHistory h = probes.get(run.probeId());
        h = h == null ? new ProbeHistory() : h;
        h.recent = RobustStats.append(h.recent, run.bitsPerSecond(), p.history());
        Event verdict =
                Diagnosis.diagnose(
                        run,
                        new Diagnosis.Context(
                                host.value(), pingRtt.value(), h.best(), h.recent.length),
                        p);
        if (h.observe(verdict.cause(), p.confirmRuns())) {
            out.collect(verdict);
        }
        probes.put(run.probeId(), h);
    }
}
