package org.longhaul.flink.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.testing.ContractFiles;

/**
 * The compiled schemas against networknt, the judge: every contract schema compiles whole, the
 * examples get the verdict they are filed under, and on tens of thousands of mutated examples
 * (a field dropped, retyped, stretched past a bound, given a newline or an emoji...) the compiled
 * schema never calls VALID what networknt rejects, nor INVALID what it accepts.
 */
class CompiledSchemaTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final int MUTANTS_PER_EXAMPLE = 1500;
    private final SchemaRegistry registry = SchemaRegistry.load(ContractFiles.schemasDir().toString());

    @Test
    void everyContractSchemaCompilesWithoutLeavingAKeywordToNetworknt() {
        for (String name : Contract.ALL_VERSIONS) {
            assertEquals(List.of(), registry.compiled(name).unsupported(), name);
        }
    }

    @Test
    void everyExampleGetsTheVerdictItIsFiledUnder() throws IOException {
        for (Example e : examples()) {
            Verdict v = registry.compiled(e.schema).check(e.node);
            if (e.valid) {
                assertEquals(Verdict.VALID, v, e.file.toString());
            } else {
                assertNotEquals(Verdict.VALID, v, e.file.toString());
            }
        }
    }

    @Test
    void mutatedExamplesNeverGetAVerdictNetworkntDisputes() throws IOException {
        Random random = new Random(20261124);
        Map<Verdict, Integer> seen = new EnumMap<>(Verdict.class);
        for (Example e : examples()) {
            if (!e.valid) {
                continue;
            }
            for (int i = 0; i < MUTANTS_PER_EXAMPLE; i++) {
                JsonNode mutant = e.node.deepCopy();
                int edits = 1 + random.nextInt(3);
                for (int k = 0; k < edits; k++) {
                    mutate(mutant, random);
                }
                Verdict v = registry.compiled(e.schema).check(mutant);
                List<String> judged = registry.networkntProblems(e.schema, mutant);
                seen.merge(v, 1, Integer::sum);
                if (v == Verdict.VALID) {
                    assertEquals(List.of(), judged, () -> e.file + " mutated to " + mutant + ": compiled VALID");
                } else if (v == Verdict.INVALID) {
                    assertTrue(!judged.isEmpty(), () -> e.file + " mutated to " + mutant + ": compiled INVALID");
                }
            }
        }
        System.out.println("compiled verdicts on mutated examples: " + seen);
        // the mutations reach all three answers, and most get a certain one
        assertTrue(seen.getOrDefault(Verdict.VALID, 0) > 1000, seen.toString());
        assertTrue(seen.getOrDefault(Verdict.INVALID, 0) > 1000, seen.toString());
        assertTrue(seen.getOrDefault(Verdict.UNSURE, 0) * 5 < seen.values().stream().mapToInt(x -> x).sum(), seen.toString());
    }

    @Test
    void aKeywordItDoesNotKnowIsLeftToNetworknt() throws IOException {
        CompiledSchema s = CompiledSchema.compile(Json.mapper().readTree(
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"format\":\"email\"}}}"));
        assertEquals(List.of("#/properties/a/format"), s.unsupported());
        assertEquals(Verdict.UNSURE, s.check(Json.mapper().readTree("{\"a\":\"x\"}")));
        assertEquals(Verdict.VALID, s.check(Json.mapper().readTree("{\"b\":1}")));
        assertEquals(Verdict.UNSURE, s.check(Json.mapper().readTree("{\"a\":1}")));  // the whole subschema is its
        assertEquals(Verdict.INVALID, s.check(Json.mapper().readTree("[]")));
    }

    @Test
    void doubtfulNumbersAndLengthsAreLeftToNetworknt() throws IOException {
        CompiledSchema s = CompiledSchema.compile(Json.mapper().readTree(
                "{\"properties\":{\"n\":{\"type\":\"integer\",\"maximum\":10},\"x\":{\"maximum\":10},"
                        + "\"s\":{\"maxLength\":2},\"c\":{\"const\":2}}}"));
        assertEquals(Verdict.UNSURE, s.check(Json.mapper().readTree("{\"n\":3.0}")));     // 2020-12 integer?
        assertEquals(Verdict.VALID, s.check(Json.mapper().readTree("{\"x\":10.0}")));     // at the bound
        assertEquals(Verdict.UNSURE, s.check(Json.mapper().readTree("{\"x\":1e400}")));
        assertEquals(Verdict.INVALID, s.check(Json.mapper().readTree("{\"x\":10.5}")));
        assertEquals(Verdict.UNSURE, s.check(Json.mapper().readTree("{\"s\":\"\\ud83d\\ude80\\ud83d\\ude80\"}"))); // 2 points, 4 units
        assertEquals(Verdict.VALID, s.check(Json.mapper().readTree("{\"c\":2}")));
        assertEquals(Verdict.UNSURE, s.check(Json.mapper().readTree("{\"c\":2.0}")));
    }

    private static void mutate(JsonNode root, Random random) {
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        JsonNode parent = containers.get(random.nextInt(containers.size()));
        if (parent instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            int op = random.nextInt(10);
            if (names.isEmpty() || op == 0) {
                o.set(random.nextBoolean() ? "unknown_field" : "x", value(null, random));
            } else if (op == 1) {
                o.remove(names.get(random.nextInt(names.size())));
            } else {
                String n = names.get(random.nextInt(names.size()));
                o.set(n, value(o.get(n), random));
            }
        } else if (parent instanceof ArrayNode a) {
            int op = random.nextInt(6);
            if (a.isEmpty() || op == 0) {
                a.add(a.isEmpty() ? value(null, random) : a.get(0).deepCopy());
            } else if (op == 1) {
                a.remove(random.nextInt(a.size()));
            } else {
                int i = random.nextInt(a.size());
                a.set(i, value(a.get(i), random));
            }
        }
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        if (node.isContainerNode()) {
            out.add(node);
            node.forEach(child -> collect(child, out));
        }
    }

    /** A replacement for {@code old}: near it (a bound's edge, a retyped number, a changed string) or anything. */
    private static JsonNode value(JsonNode old, Random r) {
        if (old != null && r.nextInt(3) > 0) {
            if (old.isIntegralNumber()) {
                long v = old.longValue();
                return switch (r.nextInt(7)) {
                    case 0 -> F.numberNode(v + 1);
                    case 1 -> F.numberNode(v - 1);
                    case 2 -> F.numberNode(-v);
                    case 3 -> F.numberNode((double) v);
                    case 4 -> F.numberNode(v + 0.5);
                    case 5 -> F.numberNode(BigInteger.valueOf(v).multiply(BigInteger.TEN.pow(18)));
                    default -> F.textNode(Long.toString(v));
                };
            }
            if (old.isNumber()) {
                double v = old.doubleValue();
                return switch (r.nextInt(5)) {
                    case 0 -> F.numberNode(Math.rint(v));
                    case 1 -> F.numberNode(-v);
                    case 2 -> F.numberNode((long) v);
                    case 3 -> F.numberNode(new BigDecimal("1e400"));
                    default -> F.numberNode(v * 1e6);
                };
            }
            if (old.isTextual()) {
                String s = old.textValue();
                return switch (r.nextInt(9)) {
                    case 0 -> F.textNode(s + "\n");
                    case 1 -> F.textNode(" " + s);
                    case 2 -> F.textNode(s.toUpperCase());
                    case 3 -> F.textNode(s.isEmpty() ? s : s.substring(1));
                    case 4 -> F.textNode(s + "\ud83d\ude80");
                    case 5 -> F.textNode(s.repeat(30));
                    case 6 -> F.textNode("");
                    case 7 -> F.textNode(s + "!");
                    default -> F.textNode(s.replace('-', '_').replace('.', '/'));
                };
            }
        }
        return switch (r.nextInt(13)) {
            case 0 -> F.nullNode();
            case 1 -> F.booleanNode(r.nextBoolean());
            case 2 -> F.textNode("");
            case 3 -> F.textNode("x".repeat(r.nextInt(300)));
            case 4 -> F.numberNode(0);
            case 5 -> F.numberNode(-1);
            case 6 -> F.numberNode(1.5);
            case 7 -> F.numberNode(65536);
            case 8 -> F.numberNode(9007199254740993L);
            case 9 -> F.arrayNode();
            case 10 -> F.objectNode();
            case 11 -> F.numberNode(1e300);
            default -> F.textNode("tcp");
        };
    }

    private record Example(String schema, boolean valid, Path file, JsonNode node) {}

    private static List<Example> examples() throws IOException {
        List<Example> out = new ArrayList<>();
        for (String kind : List.of("valid", "invalid")) {
            for (Path f : ContractFiles.examples(kind)) {
                out.add(new Example(ContractFiles.schemaOf(f), kind.equals("valid"), f, Json.mapper().readTree(f.toFile())));
            }
        }
        return out;
    }
}
