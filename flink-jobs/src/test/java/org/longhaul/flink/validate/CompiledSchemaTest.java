package org.longhaul.flink.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
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
import org.longhaul.flink.testing.JsonMutations;

/**
 * The compiled schemas against networknt, the judge: every contract schema compiles whole, the
 * examples get the verdict they are filed under, and on tens of thousands of mutated examples (a
 * field dropped, retyped, stretched past a bound, given a newline or an emoji...) the compiled
 * schema never calls VALID what networknt rejects, nor INVALID what it accepts.
 */
class CompiledSchemaTest {
    private static final int MUTANTS_PER_EXAMPLE = 1500;
    private final SchemaRegistry registry =
            SchemaRegistry.load(ContractFiles.schemasDir().toString());

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
                JsonNode mutant = JsonMutations.mutant(e.node, random);
                Verdict v = registry.compiled(e.schema).check(mutant);
                List<String> judged = registry.networkntProblems(e.schema, mutant);
                seen.merge(v, 1, Integer::sum);
                if (v == Verdict.VALID) {
                    assertEquals(
                            List.of(),
                            judged,
                            () -> e.file + " mutated to " + mutant + ": compiled VALID");
                } else if (v == Verdict.INVALID) {
                    assertTrue(
                            !judged.isEmpty(),
                            () -> e.file + " mutated to " + mutant + ": compiled INVALID");
                }
            }
        }
        System.out.println("compiled verdicts on mutated examples: " + seen);
        // the mutations reach all three answers, and most get a certain one
        assertTrue(seen.getOrDefault(Verdict.VALID, 0) > 1000, seen.toString());
        assertTrue(seen.getOrDefault(Verdict.INVALID, 0) > 1000, seen.toString());
        assertTrue(
                seen.getOrDefault(Verdict.UNSURE, 0) * 5
                        < seen.values().stream().mapToInt(x -> x).sum(),
                seen.toString());
    }

    @Test
    void aKeywordItDoesNotKnowIsLeftToNetworknt() throws IOException {
        CompiledSchema s =
                CompiledSchema.compile(
                        json(
                                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"format\":\"email\"}}}"));
        assertEquals(List.of("#/properties/a/format"), s.unsupported());
        assertEquals(Verdict.UNSURE, s.check(json("{\"a\":\"x\"}")));
        assertEquals(Verdict.VALID, s.check(json("{\"b\":1}")));
        assertEquals(Verdict.UNSURE, s.check(json("{\"a\":1}"))); // the whole subschema is its
        assertEquals(Verdict.INVALID, s.check(json("[]")));
    }

    @Test
    void doubtfulNumbersAndLengthsAreLeftToNetworknt() throws IOException {
        CompiledSchema s =
                CompiledSchema.compile(
                        json(
                                "{\"properties\":{\"n\":{\"type\":\"integer\",\"maximum\":10},\"x\":{\"maximum\":10},"
                                        + "\"s\":{\"maxLength\":2},\"c\":{\"const\":2}}}"));
        assertEquals(Verdict.UNSURE, s.check(json("{\"n\":3.0}"))); // 2020-12 integer?
        assertEquals(Verdict.VALID, s.check(json("{\"x\":10.0}"))); // at the bound
        assertEquals(Verdict.UNSURE, s.check(json("{\"x\":1e400}")));
        assertEquals(Verdict.INVALID, s.check(json("{\"x\":10.5}")));
        assertEquals(
                Verdict.UNSURE,
                s.check(json("{\"s\":\"\\ud83d\\ude80\\ud83d\\ude80\"}"))); // 2 points,
        // 4 units
        assertEquals(Verdict.VALID, s.check(json("{\"c\":2}")));
        assertEquals(Verdict.UNSURE, s.check(json("{\"c\":2.0}")));
    }

    @Test
    void aFewNamedPropertiesAreJudgedAmongManyFields() throws IOException {
        // as an if/then of the contract judges a sample: 2 properties, a message of 5 fields
        CompiledSchema s =
                CompiledSchema.compile(
                        json(
                                "{\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"null\"}},\"required\":[\"a\"]}"));
        assertEquals(Verdict.VALID, s.check(json("{\"v\":1,\"w\":2,\"x\":3,\"a\":\"t\",\"y\":4}")));
        assertEquals(
                Verdict.VALID, s.check(json("{\"v\":1,\"w\":2,\"b\":null,\"a\":\"t\",\"y\":4}")));
        assertEquals(Verdict.INVALID, s.check(json("{\"v\":1,\"w\":2,\"x\":3,\"a\":7,\"y\":4}")));
        assertEquals(
                Verdict.INVALID, s.check(json("{\"v\":1,\"w\":2,\"b\":0,\"a\":\"t\",\"y\":4}")));
        assertEquals(
                Verdict.INVALID, s.check(json("{\"v\":1,\"w\":2,\"x\":3,\"b\":null,\"y\":4}")));
        assertEquals(Verdict.VALID, s.check(json("{\"a\":\"t\"}")));
    }

    private record Example(String schema, boolean valid, Path file, JsonNode node) {}

    private static JsonNode json(String text) throws IOException {
        return Json.mapper().readTree(text);
    }

    private static List<Example> examples() throws IOException {
        List<Example> out = new ArrayList<>();
        for (String kind : List.of("valid", "invalid")) {
            for (Path f : ContractFiles.examples(kind)) {
                out.add(
                        new Example(
                                ContractFiles.schemaOf(f),
                                kind.equals("valid"),
                                f,
                                Json.mapper().readTree(f.toFile())));
            }
        }
        return out;
    }
}
