package org.longhaul.flink.jobs;

import java.time.Duration;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.longhaul.flink.functions.MapNonNull;
import org.longhaul.flink.functions.incident.IncidentCorrelator;
import org.longhaul.flink.functions.incident.IncidentInput;
import org.longhaul.flink.functions.incident.IncidentParams;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.LatencySample;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.Suspicion;
import org.longhaul.flink.records.ThroughputSample;

/**
 * Wiring of the incident correlator: the detectors' degrading alerts and their recoveries, the
 * links' paths, their good runs and the runs the collapse detector found low, into one keyed state
 * for the whole mesh (parallelism 1).
 */
public final class IncidentTopology {
    private IncidentTopology() {}

    public static DataStream<Event> wire(
            RawStreams raw,
            DataStream<ThroughputSample> summaries,
            DataStream<Event> detected,
            DataStream<Suspicion> collapseSuspects,
            IncidentParams p,
            Duration ttl) {
        TypeInformation<IncidentInput> type = TypeInformation.of(IncidentInput.class);
        return detected.flatMap(new MapNonNull<Event, IncidentInput>(IncidentInput::of))
                .returns(type)
                .name("incident: degrading alerts")
                .uid("incident-alerts")
                .union(
                        raw.path()
                                .flatMap(
                                        new MapNonNull<PathSample, IncidentInput>(
                                                IncidentInput::of))
                                .returns(type)
                                .name("incident: paths")
                                .uid("incident-paths"),
                        summaries
                                .flatMap(
                                        new MapNonNull<ThroughputSample, IncidentInput>(
                                                IncidentInput::of))
                                .returns(type)
                                .name("incident: good throughput runs")
                                .uid("incident-runs"),
                        raw.rtt()
                                .flatMap(
                                        new MapNonNull<RttSample, IncidentInput>(IncidentInput::of))
                                .returns(type)
                                .name("incident: answered pings")
                                .uid("incident-pings"),
                        raw.latency()
                                .flatMap(
                                        new MapNonNull<LatencySample, IncidentInput>(
                                                IncidentInput::of))
                                .returns(type)
                                .name("incident: one-way runs")
                                .uid("incident-latency"),
                        collapseSuspects
                                .flatMap(
                                        new MapNonNull<Suspicion, IncidentInput>(IncidentInput::of))
                                .returns(type)
                                .name("incident: low runs")
                                .uid("incident-low-runs"))
                .keyBy(in -> IncidentCorrelator.MESH, Types.STRING)
                .process(new IncidentCorrelator(p, ttl))
                .setParallelism(1)
                .name("detect: incidents")
                .uid("detect-incidents");
    }
}
