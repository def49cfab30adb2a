package org.longhaul.flink.functions.detect;

import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.longhaul.flink.functions.common.CleanupTimer;
import org.longhaul.flink.functions.common.Fmt;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.state.OneWriteType;

/**
 * high_loss / loss_recovery and high_jitter / jitter_recovery per link and protocol (key
 * "src|dst|protocol": udp from UDP throughput summaries, icmp from pings, owd from one-way latency
 * runs, whose alarms name the direction: the reverse direction is another key), with per-link
 * thresholds, confirmation and hysteresis ({@link QualityParams}). An idle metric keeps no state.
 */
public final class QualityDetector extends KeyedProcessFunction<String, QualitySample, Event> {
    private static final long serialVersionUID = 1L;

    private final QualityParams p;
    private final Duration ttl;
    private transient ValueState<ThresholdEpisode> loss;
    private transient ValueState<ThresholdEpisode> jitter;
    private transient CleanupTimer cleanup;

    public QualityDetector(QualityParams params, Duration stateTtl) {
        this.p = params;
        this.ttl = stateTtl;
    }

    @Override
    public void open(OpenContext context) {
        loss = OneWriteType.valueState(getRuntimeContext(), "loss", ThresholdEpisode.class);
        jitter = OneWriteType.valueState(getRuntimeContext(), "jitter", ThresholdEpisode.class);
        cleanup = new CleanupTimer(getRuntimeContext(), "quality", ttl);
    }

    @Override
    public void processElement(QualitySample q, Context ctx, Collector<Event> out)
            throws Exception {
        String link = Links.key(q.src(), q.dst());
        if (q.lossPercent() != null) {
            feed(loss, q, q.lossPercent(), p.lossThreshold(link), true, out);
        }
        if (q.jitterMs() != null) {
            feed(jitter, q, q.jitterMs(), p.jitterThreshold(link), false, out);
        }
        if (loss.value() == null && jitter.value() == null) {
            cleanup.cancel(ctx.timerService());
        } else {
            cleanup.touch(ctx.timerService(), q.ts());
        }
    }

    private void feed(
            ValueState<ThresholdEpisode> state,
            QualitySample q,
            double value,
            double threshold,
            boolean isLoss,
            Collector<Event> out)
            throws Exception {
        ThresholdEpisode e = state.value() == null ? new ThresholdEpisode() : state.value();
        int change = e.feed(value, threshold, p.recoveryRatio(), p.confirmRuns(), q.ts());
        if (change > 0) {
            e.episodeId =
                    (isLoss ? EventKind.HIGH_LOSS : EventKind.HIGH_JITTER).wire()
                            + ":"
                            + q.key()
                            + "@"
                            + e.since;
            out.collect(
                    isLoss ? highLoss(q, e, value, threshold) : highJitter(q, e, value, threshold));
        } else if (change < 0) {
            out.collect(recovery(q, e, value, threshold, isLoss));
        }
        if (e.idle()) {
            state.clear();
        } else {
            state.update(e);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Event> out) throws Exception {
        cleanup.clearIfExpired(ctx.timerService(), timestamp, loss, jitter);
    }

    private Event highLoss(QualitySample q, ThresholdEpisode e, double value, double threshold) {
        return Event.builder(EventKind.HIGH_LOSS, q.src(), q.dst(), Detectors.QUALITY, q.ts())
                .severity(value >= 10 * threshold ? "critical" : "warning")
                .protocol(q.protocol())
                .episode(e.episodeId)
                .message(
                        String.format(
                                "packet loss %s on %s (%d consecutive runs at or above %s, probe %s)",
                                Fmt.percent(value),
                                q.on(),
                                e.above,
                                Fmt.percent(threshold),
                                q.probeId()))
                .evidence("loss_percent", Fmt.round(value))
                .evidence("peak_loss_percent", Fmt.round(e.peak))
                .evidence("threshold_percent", threshold)
                .evidence("runs", (long) e.above)
                .evidence("probe", q.probeId())
                .build();
    }

    private Event highJitter(QualitySample q, ThresholdEpisode e, double value, double threshold) {
        return Event.builder(EventKind.HIGH_JITTER, q.src(), q.dst(), Detectors.QUALITY, q.ts())
                .severity("warning")
                .protocol(q.protocol())
                .episode(e.episodeId)
                .message(
                        String.format(
                                "jitter %s on %s (%d consecutive runs at or above %s, probe %s)",
                                Fmt.ms(value), q.on(), e.above, Fmt.ms(threshold), q.probeId()))
                .evidence("jitter_ms", Fmt.round(value))
                .evidence("peak_jitter_ms", Fmt.round(e.peak))
                .evidence("threshold_ms", threshold)
                .evidence("runs", (long) e.above)
                .evidence("probe", q.probeId())
                .build();
    }

    private Event recovery(
            QualitySample q, ThresholdEpisode e, double value, double threshold, boolean isLoss) {
        double lasted = (q.ts() - e.since) / 1000.0;
        String what = isLoss ? "packet loss" : "jitter";
        String now = isLoss ? Fmt.percent(value) : Fmt.ms(value);
        String peak = isLoss ? Fmt.percent(e.peak) : Fmt.ms(e.peak);
        return Event.builder(
                        isLoss ? EventKind.LOSS_RECOVERY : EventKind.JITTER_RECOVERY,
                        q.src(),
                        q.dst(),
                        Detectors.QUALITY,
                        q.ts())
                .severity("info")
                .protocol(q.protocol())
                .episode(e.episodeId)
                .message(
                        String.format(
                                "%s back to %s on %s after %s (peak %s, threshold %s)",
                                what,
                                now,
                                q.on(),
                                Fmt.seconds(lasted),
                                peak,
                                isLoss ? Fmt.percent(threshold) : Fmt.ms(threshold)))
                .evidence(isLoss ? "loss_percent" : "jitter_ms", Fmt.round(value))
                .evidence(isLoss ? "peak_loss_percent" : "peak_jitter_ms", Fmt.round(e.peak))
                .evidence("duration_s", Fmt.round(lasted))
                .build();
    }
}
