package org.longhaul.flink.jobs;

import java.time.Duration;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.longhaul.flink.functions.MapNonNull;
import org.longhaul.flink.functions.detect.CollapseParams;
import org.longhaul.flink.functions.detect.DiagnosisDetector;
import org.longhaul.flink.functions.detect.DiagnosisInput;
import org.longhaul.flink.functions.detect.Heartbeat;
import org.longhaul.flink.functions.detect.NoDataDetector;
import org.longhaul.flink.functions.detect.QualityDetector;
import org.longhaul.flink.functions.detect.QualitySample;
import org.longhaul.flink.functions.detect.ReachabilityDetector;
import org.longhaul.flink.functions.detect.RouteChangeDetector;
import org.longhaul.flink.functions.detect.RunInterval;
import org.longhaul.flink.functions.detect.SiteReachabilityDetector;
import org.longhaul.flink.functions.detect.StallDetector;
import org.longhaul.flink.functions.detect.ThroughputCollapseDetector;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.LatencySample;
import org.longhaul.flink.records.LinkStats;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.OnLinkKey;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.Suspicion;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.state.LinkKeyType;

/**
 * Wiring of the detectors: each a keyed function on the validated streams; their events unioned.
 */
public final class DetectorTopology {
    private DetectorTopology() {}

    /**
     * The detectors' events, the collapse detector's suspicions (low runs that do not yet alarm)
     * and its baselines (link_stats of window baseline, one after each live run).
     */
    public record Detected(
            DataStream<Event> events,
            DataStream<Suspicion> collapseSuspects,
            DataStream<LinkStats> collapseBaselines) {}

    public static Detected wire(RawStreams raw, PipelineConfig cfg) {
        DetectorConfig d = cfg.detectors();
        Duration ttl = cfg.stateTtl();
        DataStream<ThroughputSample> summaries =
                raw.throughput()
                        .filter(ThroughputSample::summary)
                        .name("select: run summaries")
                        .uid("select-summaries");

        // the collapse detector also learns from backfilled runs (functions/History), which must
        // reach
        // it in partition order with the live ones: one stream, not a union
        SingleOutputStreamOperator<Event> collapse =
                raw.throughputWithHistory()
                        .filter(ThroughputSample::summary)
                        .name("select: run summaries with history")
                        .uid("select-summaries-with-history")
                        .keyBy(t -> Links.key(t.src(), t.dst(), t.series()), LinkKeyType.INSTANCE)
                        .process(new ThroughputCollapseDetector(collapseParams(d), ttl))
                        .name("detect: throughput collapse")
                        .uid("detect-collapse");
        DataStream<Event> stall =
                raw.throughput()
                        .flatMap(new MapNonNull<ThroughputSample, RunInterval>(RunInterval::of))
                        .returns(RunInterval.class)
                        .name("select: intervals")
                        .uid("select-intervals")
                        .keyBy(RunInterval::key, LinkKeyType.INSTANCE)
                        .process(new StallDetector(d.stall()))
                        .name("detect: stall")
                        .uid("detect-stall");
        DataStream<Event> unreachable =
                summaries
                        .keyBy(new OnLinkKey<ThroughputSample>(), LinkKeyType.INSTANCE)
                        .process(new ReachabilityDetector(d.reach(), ttl))
                        .name("detect: unreachable")
                        .uid("detect-unreachable");
        DataStream<Event> site =
                summaries
                        .keyBy(ThroughputSample::dst, LinkKeyType.INSTANCE)
                        .process(new SiteReachabilityDetector(d.reach(), ttl))
                        .name("detect: site unreachable")
                        .uid("detect-site");
        TypeInformation<QualitySample> qualityType = TypeInformation.of(QualitySample.class);
        DataStream<Event> quality =
                summaries
                        .flatMap(new MapNonNull<ThroughputSample, QualitySample>(QualitySample::of))
                        .returns(qualityType)
                        .name("quality: udp runs")
                        .uid("quality-udp")
                        .union(
                                raw.rtt()
                                        .flatMap(
                                                new MapNonNull<RttSample, QualitySample>(
                                                        QualitySample::of))
                                        .returns(qualityType)
                                        .name("quality: pings")
                                        .uid("quality-ping"),
                                raw.latency()
                                        .flatMap(
                                                new MapNonNull<LatencySample, QualitySample>(
                                                        QualitySample::of))
                                        .returns(qualityType)
                                        .name("quality: one-way latency")
                                        .uid("quality-latency"))
                        .keyBy(QualitySample::key, LinkKeyType.INSTANCE)
                        .process(new QualityDetector(d.quality(), ttl))
                        .name("detect: loss and jitter")
                        .uid("detect-quality");
        DataStream<Event> route =
                raw.path()
                        .keyBy(p -> Links.key(p.src(), p.dst()), LinkKeyType.INSTANCE)
                        .process(new RouteChangeDetector(d.route(), ttl))
                        .name("detect: route change")
                        .uid("detect-route");
        DataStream<Event> diagnosis =
                diagnosisInputs(raw, summaries)
                        .keyBy(DiagnosisInput::link, LinkKeyType.INSTANCE)
                        .process(new DiagnosisDetector(d.diagnosis(), ttl))
                        .name("detect: diagnosis")
                        .uid("detect-diagnosis");
        DataStream<Event> noData =
                heartbeats(raw, summaries)
                        .keyBy(Heartbeat::key, LinkKeyType.INSTANCE)
                        .process(new NoDataDetector(d.noData(), ttl, cfg.outOfOrderness()))
                        .name("detect: no data")
                        .uid("detect-no-data");
        DataStream<Event> events =
                collapse.union(stall, unreachable, site, quality, route, diagnosis, noData);
        DataStream<Suspicion> suspects = collapse.getSideOutput(ThroughputCollapseDetector.SUSPECT);
        if (d.incident().enabled()) {
            events =
                    events.union(
                            IncidentTopology.wire(
                                    raw, summaries, events, suspects, d.incident(), ttl));
        }
        return new Detected(
                events, suspects, collapse.getSideOutput(ThroughputCollapseDetector.BASELINE));
    }

    /**
     * A catastrophic run waits for the confirming run only when confirmation probes can ask for it;
     * without them it pages at once, as the next scheduled run may be hours away.
     */
    static CollapseParams collapseParams(DetectorConfig d) {
        return d.confirm().enabled() ? d.collapse() : d.collapse().pagingAtOnce();
    }

    private static DataStream<DiagnosisInput> diagnosisInputs(
            RawStreams raw, DataStream<ThroughputSample> summaries) {
        TypeInformation<DiagnosisInput> type = TypeInformation.of(DiagnosisInput.class);
        return summaries
                .filter(DiagnosisInput::diagnosable)
                .name("diagnosis: tcp runs")
                .uid("diagnosis-runs-filter")
                .map(DiagnosisInput::of)
                .returns(type)
                .name("diagnosis: runs")
                .uid("diagnosis-runs")
                .union(
                        raw.host()
                                .map(DiagnosisInput::of)
                                .returns(type)
                                .name("diagnosis: hosts")
                                .uid("diagnosis-hosts"),
                        raw.rtt()
                                .filter(DiagnosisInput::usable)
                                .name("diagnosis: pings with rtt")
                                .uid("diagnosis-pings-filter")
                                .map(DiagnosisInput::of)
                                .returns(type)
                                .name("diagnosis: pings")
                                .uid("diagnosis-pings"));
    }

    private static DataStream<Heartbeat> heartbeats(
            RawStreams raw, DataStream<ThroughputSample> summaries) {
        TypeInformation<Heartbeat> type = TypeInformation.of(Heartbeat.class);
        return summaries
                .map(Heartbeat::of)
                .returns(type)
                .name("heartbeat: throughput")
                .uid("heartbeat-throughput")
                .union(
                        raw.rtt()
                                .map(Heartbeat::of)
                                .returns(type)
                                .name("heartbeat: rtt")
                                .uid("heartbeat-rtt"),
                        raw.path()
                                .map(Heartbeat::of)
                                .returns(type)
                                .name("heartbeat: path")
                                .uid("heartbeat-path"));
    }
}
