package org.longhaul.flink.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.HostSnapshot;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.testing.ContractFiles;
import org.longhaul.flink.testing.JsonMutations;

/**
 * The one-pass reader against the tree path, its judge: whatever it reads, the tree path (the
 * compiled checks, networknt, the binder, Jackson) calls valid and binds to an equal record, on
 * every contract example of every raw topic, on tens of thousands of mutated ones and on text the
 * mutations of a tree cannot give (fields repeated, text after the object, numbers beyond a long,
 * escapes, spacing). It reads every valid example of each topic's own version itself.
 */
class OnePassTest {
    private static final int MUTANTS_PER_EXAMPLE = 1000;
    private static final long NOW = 1_700_000_000_000L;

    /** Each raw topic's schema and the record it binds to (in name order: the mutants repeat). */
    private static final Map<String, Class<?>> TOPICS =
            new TreeMap<>(
                    Map.of(
                            Contract.THROUGHPUT,
                            ThroughputSample.class,
                            Contract.PATH,
                            PathSample.class,
                            Contract.RTT,
                            RttSample.class,
                            Contract.HOST,
                            HostSnapshot.class));

    private final SchemaRegistry registry =
            SchemaRegistry.load(ContractFiles.schemasDir().toString());
    private final MessageValidator validator = new MessageValidator(registry, "test");

    /**
     * The one-pass reader's record, checked against the tree path's verdict; null when it left the
     * message.
     */
    private Object read(String topic, byte[] payload) {
        Object fast = registry.onePass(topic, TOPICS.get(topic)).read(payload);
        if (fast != null) {
            Checked<?> tree =
                    validator.checkTree(
                            RawMessage.of("t", 0, 0L, payload), topic, TOPICS.get(topic), NOW);
            String text = new String(payload, StandardCharsets.UTF_8);
            assertTrue(
                    tree.valid(),
                    () ->
                            "read in one pass, refused by the tree path: "
                                    + text
                                    + " — "
                                    + tree.deadLetter().reason());
            assertEquals(tree.value(), fast, text);
        }
        return fast;
    }

    /** Every example of the topic's versions, valid and invalid, as (file, tree). */
    private static List<Map.Entry<Path, JsonNode>> examples(String topic) throws IOException {
        List<Map.Entry<Path, JsonNode>> out = new ArrayList<>();
        for (String version : Contract.accepted(topic)) {
            for (String kind : List.of("valid", "invalid")) {
                for (Path f : ContractFiles.examples(version, kind)) {
                    out.add(Map.entry(f, Json.mapper().readTree(f.toFile())));
                }
            }
        }
        return out;
    }

    @Test
    void readsEveryValidExampleOfEachTopicsOwnVersionAsTheTreePathDoes() throws IOException {
        int read = 0;
        for (String topic : TOPICS.keySet()) {
            for (Path f : ContractFiles.examples(topic, "valid")) {
                assertNotNull(
                        read(topic, Files.readAllBytes(f)), () -> f + ": left to the tree path");
                read++;
            }
        }
        assertTrue(read >= 4 * 3, "only " + read + " valid examples");
    }

    @Test
    void leavesEveryInvalidExampleAndOlderVersionToTheTreePath() throws IOException {
        for (String topic : TOPICS.keySet()) {
            for (Map.Entry<Path, JsonNode> e : examples(topic)) {
                boolean own = ContractFiles.schemaOf(e.getKey()).equals(topic);
                boolean valid = e.getKey().getParent().getFileName().toString().equals("valid");
                Object read = read(topic, Files.readAllBytes(e.getKey()));
                if (own != valid) { // an invalid example of this version, or a valid one of an
                    // older version
                    assertNull(read, e.getKey().toString());
                }
            }
        }
    }

    @Test
    void neverReadsAMutatedExampleOtherwiseThanTheTreePath() throws IOException {
        Random random = new Random(20261126);
        int read = 0;
        int left = 0;
        for (String topic : TOPICS.keySet()) {
            for (Map.Entry<Path, JsonNode> e : examples(topic)) {
                for (int i = 0; i < MUTANTS_PER_EXAMPLE; i++) {
                    byte[] payload =
                            Json.mapper()
                                    .writeValueAsBytes(JsonMutations.mutant(e.getValue(), random));
                    if (read(topic, random.nextInt(4) == 0 ? retyped(payload, random) : payload)
                            != null) {
                        read++;
                    } else {
                        left++;
                    }
                }
            }
        }
        // left: every older version's mutant, every invalid one, and the valid ones the compiled
        // checks are not sure of (a float for an integer, a number beyond a double)
        JsonMutations.assertSplit("one pass", read, "read", 2_000, left, "the tree path", 10_000);
    }

    /**
     * The same message as text a tree's serialization never gives: spacing, escapes, numbers
     * written otherwise.
     */
    private static byte[] retyped(byte[] payload, Random random) {
        String s = new String(payload, StandardCharsets.UTF_8);
        s =
                switch (random.nextInt(6)) {
                    case 0 -> s.replace(",\"", " ,\n\t\"").replace(":", " : ");
                    case 1 ->
                            s.replaceFirst(
                                    ":(\\d+)([,}])", ":$1.0$2"); // an integer written as a float
                    case 2 -> s.replaceFirst(":(\\d+)([,}])", ":$1e0$2");
                    case 3 ->
                            Pattern.compile(":\"([a-z])")
                                    .matcher(s) // a letter as an escape
                                    .replaceFirst(
                                            m ->
                                                    Matcher.quoteReplacement(
                                                            ":\"\\u00"
                                                                    + Integer.toHexString(
                                                                            m.group(1).charAt(0))));
                    case 4 ->
                            s.replaceFirst(
                                    ":(\\d+)([,}])", ":9223372036854775808$2"); // beyond a long
                    default -> s.replaceFirst(":-?0\\.", ":-0.");
                };
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void leavesWhatATreeWouldReadOtherwiseToTheTreePath() throws IOException {
        String example =
                Files.readString(
                        ContractFiles.examples(Contract.THROUGHPUT, "valid").stream()
                                .filter(
                                        f ->
                                                f.getFileName()
                                                        .toString()
                                                        .equals("iperf3-tcp-interval.json"))
                                .findFirst()
                                .orElseThrow());
        byte[] plain = example.getBytes(StandardCharsets.UTF_8);
        ThroughputSample s = (ThroughputSample) read(Contract.THROUGHPUT, plain);
        assertNotNull(s);
        String body = example.trim().substring(1);
        for (String other :
                List.of(
                        "{\"src\":\"elsewhere.example\","
                                + body, // a field given twice: the tree keeps the last
                        example + " {}", // text after the object
                        example.trim() + "]",
                        "{\"unknown\":1," + body, // a field the schema does not name
                        "[" + example + "]",
                        "{\"bytes\":123456789012345678901234567890,"
                                + body.replaceFirst("\"bytes\"\\s*:\\s*\\d+,?", ""),
                        example.substring(0, example.length() / 2))) {
            assertNull(read(Contract.THROUGHPUT, other.getBytes(StandardCharsets.UTF_8)), other);
        }
        // the same message spaced and escaped otherwise is the same record
        String spaced = example.replace(":", " :\n ").replace("\"iperf3\"", "\"iperf\\u0033\"");
        assertEquals(s, read(Contract.THROUGHPUT, spaced.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theValidatorAnswersByTheOnePassReaderAsByTheTree() throws IOException {
        for (String topic : TOPICS.keySet()) {
            for (Map.Entry<Path, JsonNode> e : examples(topic)) {
                RawMessage raw = RawMessage.of("t", 1, 2L, Files.readAllBytes(e.getKey()));
                Checked<?> checked = validator.check(raw, topic, TOPICS.get(topic), NOW);
                Checked<?> tree = validator.checkTree(raw, topic, TOPICS.get(topic), NOW);
                assertEquals(tree, checked, e.getKey().toString());
            }
        }
    }
}
