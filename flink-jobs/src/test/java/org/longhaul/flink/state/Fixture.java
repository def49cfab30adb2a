package org.longhaul.flink.state;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.longhaul.flink.testing.JsonLines;

/**
 * A savepoint fixture as committed: the savepoint, the input it was built from and the events it
 * raised.
 */
public record Fixture(String release, Path dir, List<JsonNode> input, List<JsonNode> events) {

    /** Every fixture under src/test/resources/savepoints (one per release kept). */
    public static List<Fixture> all() {
        try {
            Path root = Path.of(Fixture.class.getResource("/savepoints").toURI());
            try (Stream<Path> dirs = Files.list(root)) {
                return dirs.filter(d -> Files.exists(d.resolve("_metadata")))
                        .sorted()
                        .map(Fixture::load)
                        .toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException(
                    "no src/test/resources/savepoints on the test classpath", e);
        }
    }

    static Fixture load(Path dir) {
        return new Fixture(
                dir.getFileName().toString(),
                dir,
                jsonLines(dir.resolve("input.jsonl")),
                jsonLines(dir.resolve("events.jsonl")));
    }

    public List<JsonNode> input(String schema, String dst) {
        return select(
                input,
                n -> schema.equals(n.get("schema").asText()) && dst.equals(n.get("dst").asText()));
    }

    /** The one event of this kind for dst the fixture's job raised. */
    public JsonNode event(String kind, String dst) {
        List<JsonNode> found =
                select(
                        events,
                        e ->
                                kind.equals(e.get("kind").asText())
                                        && dst.equals(e.get("dst").asText()));
        if (found.size() != 1) {
            throw new IllegalStateException(
                    release + ": expected one " + kind + " for " + dst + ", got " + found);
        }
        return found.get(0);
    }

    static List<JsonNode> select(List<JsonNode> nodes, Predicate<JsonNode> which) {
        return nodes.stream().filter(which).toList();
    }

    private static List<JsonNode> jsonLines(Path file) {
        try {
            return JsonLines.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return release;
    }
}
