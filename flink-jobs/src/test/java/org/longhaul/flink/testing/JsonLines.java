package org.longhaul.flink.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.longhaul.flink.records.Json;

/** What the job and the replay command write, read back: one JSON value a line. */
public final class JsonLines {
    private JsonLines() {}

    /** Every line of {@code text} that is not blank, each of which must be JSON. */
    public static List<JsonNode> parse(String text) {
        return text.lines().filter(l -> !l.isBlank()).map(JsonLines::node).toList();
    }

    /** One line, which must be JSON. */
    public static JsonNode node(String line) {
        try {
            return Json.mapper().readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException("not a JSON line: " + line, e);
        }
    }
}
