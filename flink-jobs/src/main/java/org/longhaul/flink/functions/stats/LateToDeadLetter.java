package org.longhaul.flink.functions.stats;

import java.time.Instant;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.Json;

/**
 * An observation that reached its one-minute window after the watermark had passed it becomes a
 * dead letter with the reason, instead of vanishing: a pScheduler result retried twice by its
 * archiver (a minute each) arrives behind the watermark. Counted as {@link #LATE_METRIC}, the
 * metric the watchdog sums over the job to warn of late records. The dead letter names the raw
 * topic the sample came from, so it goes where its writer's other dead letters go (an agent's or a
 * bridge's own dead-letter topic, DeadLetterSerializer): one identity's late samples evict no one
 * else's dead letters.
 */
public final class LateToDeadLetter extends ProcessFunction<Observation, DeadLetter> {
    private static final long serialVersionUID = 1L;

    /** Flink's own name for a window's late drops, which the watchdog finds by its suffix. */
    public static final String LATE_METRIC = "numLateRecordsDropped";

    public static final String REJECTED_BY = "longhaul-flink statistics";

    private transient Counter late;

    @Override
    public void open(OpenContext ctx) {
        late = getRuntimeContext().getMetricGroup().counter(LATE_METRIC);
    }

    @Override
    public void processElement(Observation o, Context ctx, Collector<DeadLetter> out) {
        if (o.closes()) {
            return; // LinkClock sends none behind the watermark; were one late, it carries no data
        }
        late.inc();
        out.collect(of(o, ctx.timerService().currentWatermark(), System.currentTimeMillis()));
    }

    /** The dead letter of late observation o, given the watermark it came behind. */
    public static DeadLetter of(Observation o, long watermark, long now) {
        return new DeadLetter(
                DeadLetter.envelope(o.src(), o.dst(), DeadLetter.UNKNOWN, now),
                o.sourceTopic() != null ? o.sourceTopic() : DeadLetter.UNKNOWN,
                null,
                null,
                REJECTED_BY,
                reason(o, watermark),
                Json.write(o));
    }

    static String reason(Observation o, long watermark) {
        return "late for the link statistics: its "
                + o.protocol()
                + " observation of "
                + Instant.ofEpochMilli(o.ts())
                + " came after the watermark had passed its minute ("
                + (watermark == Long.MIN_VALUE
                        ? "no watermark"
                        : "watermark " + Instant.ofEpochMilli(watermark))
                + "): the run arrived later than the job's out-of-orderness allows;"
                + " the payload is the observation, its sample is on its raw topic";
    }
}
