package org.longhaul.flink.jobs;

import java.time.Duration;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;
import org.longhaul.flink.functions.MapNonNull;
import org.longhaul.flink.functions.confirm.ConfirmParams;
import org.longhaul.flink.functions.confirm.ConfirmationPlanner;
import org.longhaul.flink.functions.confirm.DelayKind;
import org.longhaul.flink.functions.confirm.DelayReading;
import org.longhaul.flink.functions.confirm.DelayShiftDetector;
import org.longhaul.flink.functions.confirm.PlannerInput;
import org.longhaul.flink.functions.confirm.RequestBudget;
import org.longhaul.flink.functions.confirm.RequestTracker;
import org.longhaul.flink.functions.confirm.RunSeen;
import org.longhaul.flink.functions.confirm.Suspicions;
import org.longhaul.flink.functions.confirm.TrackerInput;
import org.longhaul.flink.functions.confirm.TuningChangeDetector;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.HostSnapshot;
import org.longhaul.flink.records.LatencySample;
import org.longhaul.flink.records.OnLinkKey;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.Suspicion;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.state.LinkKeyType;

/**
 * Wiring of the confirmation probes: suspicions (the collapse detector's low and recovering runs,
 * route changes and loss from the detectors' events, ping RTT and one-way delay shifts, sender
 * tuning changes) → a request per suspect link within its budget → the host's budget → the mesh's
 * budget → the probe-requests topic; and a tracker that reports every request no run answered.
 */
public final class ConfirmTopology {
    private ConfirmTopology() {}

    /** The requests to send, and the probe_request_unserved events. */
    public record Confirmations(DataStream<ProbeRequest> requests, DataStream<Event> events) {}

    private static final OutputTag<Event> BUDGET =
            new OutputTag<>("confirm-unserved-budget", TypeInformation.of(Event.class));

    public static Confirmations wire(
            RawStreams raw,
            DataStream<Event> events,
            DataStream<Suspicion> collapseSuspects,
            PipelineConfig cfg) {
        ConfirmParams c = cfg.detectors().confirm();
        Duration ttl = cfg.stateTtl();
        TypeInformation<Suspicion> suspicion = TypeInformation.of(Suspicion.class);
        DataStream<Suspicion> fromEvents =
                events.flatMap(new MapNonNull<Event, Suspicion>(Suspicions::ofEvent))
                        .returns(suspicion)
                        .name("confirm: suspicions of events")
                        .uid("confirm-suspicions-events");
        TypeInformation<DelayReading> reading = TypeInformation.of(DelayReading.class);
        DataStream<Suspicion> rtt =
                raw.rtt()
                        .flatMap(new MapNonNull<RttSample, DelayReading>(DelayReading::of))
                        .returns(reading)
                        .name("confirm: ping delays")
                        .uid("confirm-rtt-delays")
                        .keyBy(DelayReading::link, LinkKeyType.INSTANCE)
                        .process(new DelayShiftDetector(c, ttl, DelayKind.RTT))
                        .name("confirm: rtt shift")
                        .uid("confirm-rtt-shift");
        double minShift = c.rttMinMs();
        DataStream<Suspicion> owd =
                raw.latency()
                        .flatMap(
                                new MapNonNull<LatencySample, DelayReading>(
                                        l -> DelayReading.of(l, minShift)))
                        .returns(reading)
                        .name("confirm: one-way delays")
                        .uid("confirm-owd-delays")
                        .keyBy(DelayReading::link, LinkKeyType.INSTANCE)
                        .process(new DelayShiftDetector(c, ttl, DelayKind.OWD))
                        .name("confirm: one-way delay shift")
                        .uid("confirm-owd-shift");
        DataStream<Suspicion> tuning =
                raw.host()
                        .keyBy(new OnLinkKey<HostSnapshot>(), LinkKeyType.INSTANCE)
                        .process(new TuningChangeDetector(ttl))
                        .name("confirm: tuning change")
                        .uid("confirm-tuning-change");
        DataStream<RunSeen> runs = runsSeen(raw.throughput(), "", "");
        // the planner also learns a link's throughput probe from its backfilled history, so a link
        // imported on day one can be confirmed before its first scheduled run
        DataStream<RunSeen> runsWithHistory =
                runsSeen(raw.throughputWithHistory(), " with history", "-history");

        TypeInformation<PlannerInput> plannerInput = TypeInformation.of(PlannerInput.class);
        SingleOutputStreamOperator<ProbeRequest> planned =
                collapseSuspects
                        .union(fromEvents, rtt, owd, tuning)
                        .map(PlannerInput::of)
                        .returns(plannerInput)
                        .name("confirm: suspicions")
                        .uid("confirm-suspicions")
                        .union(
                                runsWithHistory
                                        .map(PlannerInput::of)
                                        .returns(plannerInput)
                                        .name("confirm: runs to plan")
                                        .uid("confirm-runs-plan"),
                                events.flatMap(
                                                new MapNonNull<Event, PlannerInput>(
                                                        PlannerInput::ofEvent))
                                        .returns(plannerInput)
                                        .name("confirm: collapse episodes")
                                        .uid("confirm-episodes"))
                        .keyBy(PlannerInput::link, LinkKeyType.INSTANCE)
                        .process(new ConfirmationPlanner(c, ttl))
                        .name("confirm: plan per link")
                        .uid("confirm-plan");
        Duration hour = Duration.ofHours(1);
        SingleOutputStreamOperator<ProbeRequest> host =
                planned.keyBy(ProbeRequest::src, LinkKeyType.INSTANCE)
                        .process(new RequestBudget("host", c.hostPerHour(), hour, BUDGET))
                        .name("confirm: host budget")
                        .uid("confirm-budget-host");
        SingleOutputStreamOperator<ProbeRequest> mesh =
                host.keyBy(r -> RequestBudget.MESH, LinkKeyType.INSTANCE)
                        .process(new RequestBudget("mesh", c.meshPerHour(), hour, BUDGET))
                        .name("confirm: mesh budget")
                        .uid("confirm-budget-mesh");

        TypeInformation<TrackerInput> trackerInput = TypeInformation.of(TrackerInput.class);
        DataStream<Event> unanswered =
                mesh.map(TrackerInput::of)
                        .returns(trackerInput)
                        .name("confirm: requests sent")
                        .uid("confirm-sent")
                        .union(
                                runs.map(TrackerInput::of)
                                        .returns(trackerInput)
                                        .name("confirm: runs to track")
                                        .uid("confirm-runs-track"))
                        .keyBy(TrackerInput::link, LinkKeyType.INSTANCE)
                        .process(new RequestTracker())
                        .name("confirm: track requests")
                        .uid("confirm-track");
        DataStream<Event> unserved =
                planned.getSideOutput(ConfirmationPlanner.UNSERVED)
                        .union(host.getSideOutput(BUDGET), mesh.getSideOutput(BUDGET), unanswered);
        return new Confirmations(mesh, unserved);
    }

    /**
     * The run summaries of throughput as the planner and the tracker see them; which and uid tell
     * the operators' names and uids of one stream from another's (the uids are in savepoints).
     */
    private static DataStream<RunSeen> runsSeen(
            DataStream<ThroughputSample> throughput, String which, String uid) {
        return throughput
                .filter(ThroughputSample::summary)
                .name("confirm: run summaries" + which)
                .uid("confirm-summaries" + uid)
                .map(RunSeen::of)
                .returns(TypeInformation.of(RunSeen.class))
                .name("confirm: runs" + which)
                .uid("confirm-runs" + uid);
    }
}
