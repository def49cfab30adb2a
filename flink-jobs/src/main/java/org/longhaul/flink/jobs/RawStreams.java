package org.longhaul.flink.jobs;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.longhaul.flink.functions.BridgeLists;
import org.longhaul.flink.functions.DropReplayed;
import org.longhaul.flink.functions.LiveOnly;
import org.longhaul.flink.functions.RawTimestamps;
import org.longhaul.flink.functions.ValidateFunction;
import org.longhaul.flink.functions.stats.Observation;
import org.longhaul.flink.functions.stats.Observer;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.HostSnapshot;
import org.longhaul.flink.records.LatencySample;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.records.Validated;

/**
 * Wiring: each raw source with the shared watermark strategy, what an agent sent twice dropped,
 * validated into typed streams of live samples, and the valid traces as they came ({@code
 * validPaths}, for longhaul.paths); beside them the throughput samples with the backfilled ones
 * among them, in partition order ({@code throughputWithHistory}, see functions/History). Backfilled
 * traces, pings and host snapshots are not used: their baselines learn live within the hour. And
 * what each valid live throughput, path, ping and latency sample gives the link statistics, with
 * the raw topic it came from ({@code observations}).
 */
public record RawStreams(
        DataStream<ThroughputSample> throughput,
        DataStream<ThroughputSample> throughputWithHistory,
        DataStream<PathSample> path,
        DataStream<RttSample> rtt,
        DataStream<LatencySample> latency,
        DataStream<HostSnapshot> host,
        DataStream<DeadLetter> deadLetters,
        DataStream<Validated> validPaths,
        DataStream<Observation> observations) {

    public static RawStreams wire(
            StreamExecutionEnvironment env, Sources sources, PipelineConfig cfg) {
        WatermarkStrategy<RawMessage> watermarks =
                RawTimestamps.strategy(cfg.outOfOrderness(), cfg.idleness(), cfg.clockSkew());
        var throughputAll =
                validated(
                        env,
                        sources.throughput(),
                        watermarks,
                        "throughput",
                        Contract.THROUGHPUT,
                        ThroughputSample.class,
                        cfg,
                        false,
                        sources.bridges(),
                        Observer.throughput());
        var path =
                validated(
                        env,
                        sources.path(),
                        watermarks,
                        "path",
                        Contract.PATH,
                        PathSample.class,
                        cfg,
                        true,
                        sources.bridges(),
                        Observer.path());
        var rtt =
                validated(
                        env,
                        sources.rtt(),
                        watermarks,
                        "rtt",
                        Contract.RTT,
                        RttSample.class,
                        cfg,
                        false,
                        sources.bridges(),
                        Observer.rtt());
        var latency =
                validated(
                        env,
                        sources.latency(),
                        watermarks,
                        "latency",
                        Contract.LATENCY,
                        LatencySample.class,
                        cfg,
                        false,
                        sources.bridges(),
                        Observer.latency());
        var host =
                validated(
                        env,
                        sources.host(),
                        watermarks,
                        "host",
                        Contract.HOST,
                        HostSnapshot.class,
                        cfg,
                        false,
                        sources.bridges(),
                        null);
        DataStream<DeadLetter> dead =
                throughputAll
                        .getSideOutput(ValidateFunction.DEAD_LETTERS)
                        .union(
                                path.getSideOutput(ValidateFunction.DEAD_LETTERS),
                                rtt.getSideOutput(ValidateFunction.DEAD_LETTERS),
                                latency.getSideOutput(ValidateFunction.DEAD_LETTERS),
                                host.getSideOutput(ValidateFunction.DEAD_LETTERS));
        return new RawStreams(
                live(throughputAll, "throughput", ThroughputSample.class),
                throughputAll,
                live(path, "path", PathSample.class),
                live(rtt, "rtt", RttSample.class),
                live(latency, "latency", LatencySample.class),
                live(host, "host", HostSnapshot.class),
                dead,
                path.getSideOutput(ValidateFunction.VALID),
                throughputAll
                        .getSideOutput(ValidateFunction.OBSERVATIONS)
                        .union(
                                path.getSideOutput(ValidateFunction.OBSERVATIONS),
                                rtt.getSideOutput(ValidateFunction.OBSERVATIONS),
                                latency.getSideOutput(ValidateFunction.OBSERVATIONS)));
    }

    /** The live samples of a validated stream (functions/LiveOnly), chained to it. */
    private static <T> DataStream<T> live(DataStream<T> validated, String name, Class<T> type) {
        return validated.process(new LiveOnly<>(type)).name("live: " + name).uid("live-" + name);
    }

    private static <T> SingleOutputStreamOperator<T> validated(
            StreamExecutionEnvironment env,
            Source<RawMessage, ?, ?> source,
            WatermarkStrategy<RawMessage> watermarks,
            String name,
            String schema,
            Class<T> type,
            PipelineConfig cfg,
            boolean forward,
            BridgeLists bridges,
            Observer<T> observer) {
        return env.fromSource(source, watermarks, "source: raw " + name)
                .uid("source-raw-" + name)
                .process(new DropReplayed())
                .name("drop replayed: " + name)
                .uid("drop-replayed-" + name)
                .process(
                        new ValidateFunction<>(
                                schema,
                                type,
                                cfg.schemasDir(),
                                cfg.clockSkew(),
                                cfg.linkCap(),
                                forward,
                                bridges,
                                observer))
                .name("validate: " + schema)
                .uid("validate-" + name);
    }
}
