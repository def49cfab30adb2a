package org.longhaul.flink.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Predicate;
import org.longhaul.flink.jobs.PipelineConfig;
import org.longhaul.flink.replay.ReplayInput;
import org.longhaul.flink.replay.ReplayRunner;

/** Runs the whole job graph on an embedded MiniCluster over JSON lines and keeps what it wrote. */
public record ReplayOutput(
        List<JsonNode> events, List<JsonNode> stats, List<JsonNode> deadLetters) {

    public static ReplayOutput of(List<String> lines) throws Exception {
        return of(lines, PipelineConfig.defaults());
    }

    public static ReplayOutput of(List<String> lines, PipelineConfig cfg) throws Exception {
        return of(ReplayInput.route(lines, "test"), cfg);
    }

    /**
     * The raw streams as given: messages may carry the broker's and the agent's clocks, as the
     * Kafka source's do.
     */
    public static ReplayOutput of(ReplayInput input, PipelineConfig cfg) throws Exception {
        var events = new ByteArrayOutputStream();
        var stats = new ByteArrayOutputStream();
        var dead = new ByteArrayOutputStream();
        ReplayRunner.run(input, cfg, utf8(events), utf8(stats), utf8(dead));
        return new ReplayOutput(parse(events), parse(stats), parse(dead));
    }

    public List<JsonNode> events(String kind) {
        return events.stream().filter(e -> kind.equals(e.get("kind").asText())).toList();
    }

    public List<JsonNode> stats(Predicate<JsonNode> which) {
        return stats.stream().filter(which).toList();
    }

    private static PrintStream utf8(ByteArrayOutputStream out) {
        return new PrintStream(out, true, StandardCharsets.UTF_8);
    }

    private static List<JsonNode> parse(ByteArrayOutputStream out) {
        return JsonLines.parse(out.toString(StandardCharsets.UTF_8));
    }
}
