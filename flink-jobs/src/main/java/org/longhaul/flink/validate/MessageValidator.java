package org.longhaul.flink.validate;

import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.records.RawMessage;

/**
 * Parses a raw message, validates it against its schema and maps it to its record. Never throws on
 * bad input: whatever does not pass becomes a {@link DeadLetter} whose reason names the JSON
 * path(s) at fault and whose payload is the message, whole.
 */
public final class MessageValidator {
    /** The contract's host pattern ($defs/host): dead letters only copy src/dst that match it. */
    private static final Pattern HOST = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._:-]*$");

    private static final int MAX_REASON = 2000;

    private final SchemaRegistry registry;
    private final String rejectedBy;
    private final ObjectReader reader = Json.messages();

    /** Per topic schema, its one-pass reader (an empty Optional when it has none). */
    private final Map<String, Optional<OnePass<?>>> onePass = new HashMap<>();

    public MessageValidator(SchemaRegistry registry, String rejectedBy) {
        this.registry = registry;
        this.rejectedBy = rejectedBy;
    }

    /**
     * Checks a message of a topic whose schema is {@code topicSchema} ("throughput_sample.v2"):
     * against the schema of the version the message names when the topic takes it (every version up
     * to the topic's), so producers not yet upgraded keep being read.
     */
    public <T> Checked<T> check(RawMessage raw, String topicSchema, Class<T> type, long now) {
        OnePass<T> fast = raw.blank() ? null : onePass(topicSchema, type);
        T read = fast == null ? null : fast.read(raw.payload());
        if (read != null) {
            return new Checked<>(read, null);
        }
        return checkTree(raw, topicSchema, type, now);
    }

    /**
     * {@link #check} by a tree of the whole message: what decides every message the one-pass reader
     * leaves (any doubt, any error, an older version), and the judge {@code OnePassTest} holds that
     * reader to.
     */
    public <T> Checked<T> checkTree(RawMessage raw, String topicSchema, Class<T> type, long now) {
        JsonNode node;
        try {
            if (raw.blank()) {
                return reject(raw, null, "not JSON: empty message", now);
            }
            node = reader.readTree(raw.payload());
        } catch (IOException e) {
            if (e instanceof StreamReadException r
                    && r.getOriginalMessage().startsWith("Duplicate")) {
                // one reading of every message: what the job validates is what every reader reads
                return reject(raw, null, "a key given twice: " + oneLine(e), now);
            }
            return reject(raw, null, "not JSON: " + oneLine(e), now);
        }
        String schemaName = Contract.schemaOf(topicSchema, version(node));
        List<String> problems = registry.problems(schemaName, node);
        if (!problems.isEmpty()) {
            return reject(
                    raw,
                    node,
                    "not a valid " + schemaName + ": " + String.join("; ", problems),
                    now);
        }
        try {
            return new Checked<>(Json.convert(node, type), null);
        } catch (IllegalArgumentException e) {
            return reject(
                    raw, node, "valid " + schemaName + " but unreadable: " + e.getMessage(), now);
        }
    }

    /**
     * The one-pass reader of messages of the topic's schema (its latest version) into {@code type},
     * or null.
     */
    @SuppressWarnings("unchecked")
    private <T> OnePass<T> onePass(String topicSchema, Class<T> type) {
        Optional<OnePass<?>> known = onePass.get(topicSchema);
        if (known == null || known.isPresent() && known.get().type() != type) {
            known = Optional.ofNullable(registry.onePass(topicSchema, type));
            onePass.put(topicSchema, known);
        }
        return (OnePass<T>) known.orElse(null);
    }

    /**
     * The dead letter of a message refused for a reason of its own (its clock:
     * functions/ClockSkew), with src, dst and probe_id copied when the payload has them.
     */
    public DeadLetter reject(RawMessage raw, String reason, long now) {
        JsonNode node;
        try {
            node = raw.blank() ? null : reader.readTree(raw.payload());
        } catch (IOException e) {
            node = null;
        }
        return reject(raw, node, reason, now).deadLetter();
    }

    private <T> Checked<T> reject(RawMessage raw, JsonNode node, String reason, long now) {
        String topic =
                raw.sourceTopic() == null || raw.sourceTopic().isEmpty()
                        ? DeadLetter.UNKNOWN
                        : raw.sourceTopic();
        DeadLetter letter =
                new DeadLetter(
                        DeadLetter.envelope(
                                host(node, "src"), host(node, "dst"), probeId(node), now),
                        topic,
                        raw.partition(),
                        raw.offset(),
                        rejectedBy,
                        truncate(reason),
                        raw.text());
        return new Checked<>(null, letter);
    }

    /**
     * The message's version, or 0 when it names none (its topic's schema then says what is wrong).
     */
    private static int version(JsonNode node) {
        JsonNode v = node == null || !node.isObject() ? null : node.get("version");
        return v != null && v.isInt() ? v.intValue() : 0;
    }

    private static String host(JsonNode node, String field) {
        String v = text(node, field);
        return v != null && v.length() <= 253 && HOST.matcher(v).matches() ? v : DeadLetter.UNKNOWN;
    }

    private static String probeId(JsonNode node) {
        String v = text(node, "probe_id");
        return v != null && !v.isEmpty() && v.length() <= 200 ? v : DeadLetter.UNKNOWN;
    }

    private static String text(JsonNode node, String field) {
        if (node == null || !node.isObject()) {
            return null;
        }
        JsonNode v = node.get(field);
        return v != null && v.isTextual() ? v.asText() : null;
    }

    private static String oneLine(IOException e) {
        String m =
                e instanceof com.fasterxml.jackson.core.JsonProcessingException jpe
                        ? jpe.getOriginalMessage() + locationOf(jpe)
                        : e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m.replaceAll("\\s+", " ").trim();
    }

    private static String locationOf(com.fasterxml.jackson.core.JsonProcessingException e) {
        return e.getLocation() == null
                ? ""
                : " at line "
                        + e.getLocation().getLineNr()
                        + " column "
                        + e.getLocation().getColumnNr();
    }

    private static String truncate(String reason) {
        return reason.length() <= MAX_REASON ? reason : reason.substring(0, MAX_REASON - 1) + "…";
    }
}
