package org.longhaul.flink.state;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.longhaul.flink.functions.BridgeLists;
import org.longhaul.flink.jobs.LinkMonitorPipeline;
import org.longhaul.flink.jobs.PipelineConfig;
import org.longhaul.flink.jobs.Sinks;
import org.longhaul.flink.jobs.Sources;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.LinkStats;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.records.Validated;
import org.longhaul.flink.replay.Channels;
import org.longhaul.flink.replay.JsonLinesSink;
import org.longhaul.flink.replay.ReplayInput;
import org.longhaul.flink.testing.JsonLines;

/**
 * The job graph of {@link LinkMonitorPipeline} (the production wiring, uids and all) fed by {@link
 * ScriptedSource}s with JSON lines, its events and statistics kept in memory. Parallelism 1, object
 * reuse on, as the job runs by default. Close it to release its output channels.
 */
public final class ScriptedPipeline implements AutoCloseable {
    private final String id = UUID.randomUUID().toString();
    private final ByteArrayOutputStream events = new ByteArrayOutputStream();
    private final ByteArrayOutputStream stats = new ByteArrayOutputStream();
    private final JobGraph graph;

    /** stayOpen: the sources idle after their lines (for a savepoint) instead of finishing. */
    public ScriptedPipeline(List<String> lines, boolean stayOpen) {
        ReplayInput in = ReplayInput.route(lines, "fixture");
        Channels.open("events-" + id, new PrintStream(events, true, StandardCharsets.UTF_8));
        Channels.open("stats-" + id, new PrintStream(stats, true, StandardCharsets.UTF_8));
        Channels.open("dead-" + id, new PrintStream(OutputStream.nullOutputStream()));
        Channels.open("requests-" + id, new PrintStream(OutputStream.nullOutputStream()));
        Channels.open("paths-" + id, new PrintStream(OutputStream.nullOutputStream()));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.getConfig().enableObjectReuse();
        env.enableCheckpointing(3_600_000, CheckpointingMode.EXACTLY_ONCE); // savepoints only
        Sources sources =
                new Sources(
                        new ScriptedSource(in.throughput(), stayOpen),
                        new ScriptedSource(in.path(), stayOpen),
                        new ScriptedSource(in.rtt(), stayOpen),
                        new ScriptedSource(in.latency(), stayOpen),
                        new ScriptedSource(in.host(), stayOpen),
                        BridgeLists.none());
        Sinks sinks =
                new Sinks(
                        new JsonLinesSink<LinkStats>("stats-" + id),
                        new JsonLinesSink<Event>("events-" + id),
                        new JsonLinesSink<DeadLetter>("dead-" + id),
                        new JsonLinesSink<ProbeRequest>("requests-" + id),
                        new JsonLinesSink<Validated>("paths-" + id));
        LinkMonitorPipeline.wire(env, sources, sinks, PipelineConfig.defaults());
        this.graph = env.getStreamGraph().getJobGraph();
    }

    public JobGraph graph() {
        return graph;
    }

    public List<JsonNode> events() {
        return parse(events);
    }

    public List<String> eventLines() {
        return events().stream().map(JsonNode::toString).toList();
    }

    public List<JsonNode> stats() {
        return parse(stats);
    }

    @Override
    public void close() {
        Channels.close("events-" + id);
        Channels.close("stats-" + id);
        Channels.close("dead-" + id);
        Channels.close("requests-" + id);
        Channels.close("paths-" + id);
    }

    private static List<JsonNode> parse(ByteArrayOutputStream out) {
        String text;
        synchronized (out) {
            text = out.toString(StandardCharsets.UTF_8);
        }
        text =
                text.substring(
                        0,
                        text.lastIndexOf('\n') + 1); // complete lines only: a sink may be writing
        return JsonLines.parse(text);
    }
}
