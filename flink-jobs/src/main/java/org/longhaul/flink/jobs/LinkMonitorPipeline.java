package org.longhaul.flink.jobs;

import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.LinkStats;

/**
 * The one job graph of Longhaul, whatever feeds it: raw sources → validation (dead letters to
 * their sink) → link statistics and detectors → sinks. {@code LinkMonitorJob} runs it on Kafka,
 * {@code Replay} on a file; both call {@link #wire}.
 */
public final class LinkMonitorPipeline {
    private LinkMonitorPipeline() {}

    public static void wire(StreamExecutionEnvironment env, Sources sources, Sinks sinks, PipelineConfig cfg) {
        RawStreams raw = RawStreams.wire(env, sources, cfg);
        raw.deadLetters().sinkTo(sinks.deadLetters()).name("sink: dead letters").uid("sink-deadletter");

        DataStream<LinkStats> stats = StatsTopology.wire(raw);
        stats.sinkTo(sinks.stats()).name("sink: link stats").uid("sink-stats");

        DataStream<Event> events = DetectorTopology.wire(raw, cfg);
        events.sinkTo(sinks.events()).name("sink: events").uid("sink-events");
    }
}
