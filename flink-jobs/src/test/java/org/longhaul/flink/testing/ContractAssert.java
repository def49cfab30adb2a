package org.longhaul.flink.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.validate.SchemaRegistry;

/** What the tests hold of every message the job writes: its schema in the contract accepts it. */
public final class ContractAssert {
    private ContractAssert() {}

    /**
     * {@code message}, a JSON tree or one of the job's records, is valid against {@code schema} (a
     * {@link Contract} name); the failure shows the message.
     */
    public static void assertValid(String schema, Object message) {
        JsonNode tree = message instanceof JsonNode n ? n : Json.mapper().valueToTree(message);
        assertEquals(
                List.of(),
                SchemaRegistry.bundled().problems(schema, tree),
                () -> "invalid " + schema + ": " + tree);
    }

    /** Each of {@code messages} is valid against {@code schema}. */
    public static void assertAllValid(String schema, Iterable<?> messages) {
        messages.forEach(m -> assertValid(schema, m));
    }
}
