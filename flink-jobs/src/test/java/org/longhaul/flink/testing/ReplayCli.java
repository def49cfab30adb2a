package org.longhaul.flink.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.longhaul.flink.replay.Replay;

/**
 * The replay command run in-process, as a user runs it: arguments, stdin, stdout, stderr, exit
 * code.
 */
public record ReplayCli(int exit, List<String> stdout, List<String> stderr) {

    public static ReplayCli run(List<String> stdinLines, String... args) {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        byte[] in = (String.join("\n", stdinLines) + "\n").getBytes(StandardCharsets.UTF_8);
        int exit =
                Replay.run(
                        args,
                        new ByteArrayInputStream(in),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new ReplayCli(exit, lines(out), lines(err));
    }

    private static List<String> lines(ByteArrayOutputStream out) {
        return out.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
    }

    /** stdout as JSON; every line must be JSON. */
    public List<JsonNode> json() {
        return stdout.stream().map(JsonLines::node).toList();
    }

    public List<JsonNode> events() {
        return json().stream().filter(n -> "event".equals(n.path("schema").asText())).toList();
    }

    public List<JsonNode> events(String kind) {
        return events().stream().filter(n -> kind.equals(n.get("kind").asText())).toList();
    }

    public List<JsonNode> deadLetters() {
        return stderr.stream()
                .filter(l -> l.startsWith("{"))
                .map(JsonLines::node)
                .filter(n -> "dead_letter".equals(n.path("schema").asText()))
                .toList();
    }
}
