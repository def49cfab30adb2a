package org.longhaul.flink.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.testing.ContractFiles;
import org.longhaul.flink.testing.ContractRecords;

/**
 * Every example of ingest/schemas/examples — the files the Go and Python tests load too: each valid
 * one validates, parses into its record and survives a round trip; each invalid one is rejected
 * with a dead letter. Run against the bundled schemas and the repository's copy.
 */
class ContractExamplesTest {
    private static final Map<String, Class<?>> RECORDS = ContractRecords.all();
    private static final ObjectMapper WITHOUT_NULLS =
            Json.mapper()
                    .copy()
                    .setDefaultPropertyInclusion(
                            JsonInclude.Value.construct(
                                    JsonInclude.Include.NON_NULL,
                                    JsonInclude.Include.USE_DEFAULTS));

    @TestFactory
    Stream<DynamicTest> everyValidExampleValidatesAndParses() throws IOException {
        return forEachExample(
                "valid",
                (file, schema, registry, checked) -> {
                    assertTrue(
                            checked.valid(),
                            () -> name(file) + " rejected: " + checked.deadLetter().reason());
                    JsonNode back = WITHOUT_NULLS.valueToTree(checked.value());
                    assertEquals(
                            List.of(),
                            registry.problems(schema, back),
                            "round trip of " + name(file));
                    assertEquals(
                            Json.mapper().readTree(Files.readString(file)).get("ts"),
                            back.get("ts"));
                });
    }

    @TestFactory
    Stream<DynamicTest> everyInvalidExampleIsRejectedWithAReason() throws IOException {
        return forEachExample(
                "invalid",
                (file, schema, registry, checked) -> {
                    assertFalse(checked.valid(), name(file) + " accepted");
                    DeadLetter letter = checked.deadLetter();
                    assertNotNull(letter);
                    assertTrue(
                            letter.reason().contains("$"),
                            "reason names a JSON path: " + letter.reason());
                    assertEquals(Files.readString(file), letter.payload());
                    assertEquals(
                            List.of(),
                            registry.problems("dead_letter.v1", Json.mapper().valueToTree(letter)));
                });
    }

    /** What a test holds of one example as one registry checked it. */
    private interface ExampleCheck {
        void check(Path file, String schema, SchemaRegistry registry, Checked<?> checked)
                throws IOException;
    }

    /** One dynamic test per example of kind: each registry checks it, then so does the test. */
    private static Stream<DynamicTest> forEachExample(String kind, ExampleCheck test)
            throws IOException {
        return examples(kind).stream()
                .map(
                        file ->
                                DynamicTest.dynamicTest(
                                        name(file),
                                        () -> {
                                            String schema = ContractFiles.schemaOf(file);
                                            for (SchemaRegistry registry : registries()) {
                                                test.check(
                                                        file,
                                                        schema,
                                                        registry,
                                                        new MessageValidator(registry, "test")
                                                                .check(
                                                                        raw(file),
                                                                        schema,
                                                                        RECORDS.get(schema),
                                                                        Json.MIN_TS));
                                            }
                                        }));
    }

    @Test
    void everySchemaHasValidAndInvalidExamples() throws IOException {
        for (String schema : RECORDS.keySet()) {
            assertFalse(
                    ContractFiles.examples(schema, "valid").isEmpty(),
                    schema + " has no valid example");
            assertFalse(
                    ContractFiles.examples(schema, "invalid").isEmpty(),
                    schema + " has no invalid example");
        }
    }

    private static List<SchemaRegistry> registries() {
        return List.of(
                SchemaRegistry.bundled(),
                SchemaRegistry.load(ContractFiles.schemasDir().toString()));
    }

    private static RawMessage raw(Path file) throws IOException {
        return RawMessage.of("test", 0, 0L, Files.readString(file));
    }

    private static List<Path> examples(String kind) throws IOException {
        List<Path> out = ContractFiles.examples(kind);
        assertFalse(out.isEmpty(), "no " + kind + " examples found");
        return out;
    }

    private static String name(Path file) {
        return file.getParent().getParent().getFileName()
                + "/"
                + file.getParent().getFileName()
                + "/"
                + file.getFileName();
    }
}
