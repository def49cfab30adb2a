package org.longhaul.flink.validate;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.util.AbstractMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.longhaul.flink.records.FieldsBinder;
import org.longhaul.flink.records.Json;

/**
 * Reads, checks and binds a raw message in one pass over its tokens, for the hot path: each
 * top-level field goes straight to its property's compiled check and its record component, with no
 * tree of the whole message (Jackson's tree — a map entry and a node per field — and the lookups by
 * name of the check and the binding were most of a message's cost; docs/ benchmarks-log.md,
 * <i>2026-11-26: Flink throughput, one pass</i>).
 *
 * <p>It only answers for a message that is plainly one object of the schema's own properties:
 * {@link #read} returns the record when the compiled schema calls it {@link Verdict#VALID} and the
 * binder binds it, and null on anything else — a field the schema does not name, a field given
 * twice, a number beyond a long, text after the object, any doubt of the check or the binding, bad
 * JSON — so that {@link MessageValidator}'s tree path, networknt and Jackson decide and explain.
 * Each value is the node Jackson's tree would hold (a nested object or array is Jackson's own tree
 * of it), so the checks and the binding are those of the tree path; {@code OnePassTest} holds the
 * two to the same record on every contract example and tens of thousands of mutated ones.
 */
final class OnePass<T> {
    /**
     * Nested values are read by the reader of raw messages; the end of the message is checked here.
     */
    private static final ObjectReader READER =
            Json.messages().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final CompiledSchema schema;
    private final Class<T> type;
    private final FieldsBinder<T> binder;
    private final String[] names;
    private final Map<String, Integer> positions = new HashMap<>();

    private OnePass(CompiledSchema schema, Class<T> type, FieldsBinder<T> binder, String[] names) {
        this.schema = schema;
        this.type = type;
        this.binder = binder;
        this.names = names;
        for (int i = 0; i < names.length; i++) {
            positions.put(names[i], i);
        }
    }

    /**
     * The one-pass reader of {@code schema} into {@code type}, or null when it cannot have one (a
     * schema without properties, a type Jackson alone binds): the tree path reads everything.
     */
    static <T> OnePass<T> of(CompiledSchema schema, Class<T> type) {
        String[] names = schema.fields();
        FieldsBinder<T> binder = names.length == 0 ? null : Json.fieldsBinder(type, names);
        return binder == null ? null : new OnePass<>(schema, type, binder, names);
    }

    Class<T> type() {
        return type;
    }

    /** The record of a message that is certainly valid, or null when the tree path must decide. */
    T read(byte[] payload) {
        JsonNode[] values = new JsonNode[names.length];
        int present = 0;
        try (JsonParser p = READER.createParser(payload)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                Integer i = positions.get(p.currentName());
                if (i == null || values[i] != null) {
                    return null;
                }
                JsonNode v = value(p, p.nextToken());
                if (v == null) {
                    return null;
                }
                values[i] = v;
                present++;
            }
            if (t != JsonToken.END_OBJECT || p.nextToken() != null) {
                return null;
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        ObjectNode view = new ObjectNode(JsonNodeFactory.instance, new Fields(values, present));
        return schema.checkFields(view, values, present) == Verdict.VALID
                ? binder.bind(values)
                : null;
    }

    /**
     * The node Jackson's tree holds for the value at {@code t}, or null for one it would hold
     * otherwise.
     */
    private static JsonNode value(JsonParser p, JsonToken t) throws IOException {
        return switch (t) {
            case VALUE_STRING -> TextNode.valueOf(p.getText());
            case VALUE_NUMBER_INT ->
                    switch (p.getNumberType()) {
                        case INT -> IntNode.valueOf(p.getIntValue());
                        case LONG -> LongNode.valueOf(p.getLongValue());
                        default -> null;
                    };
            case VALUE_NUMBER_FLOAT -> DoubleNode.valueOf(p.getDoubleValue());
            case VALUE_TRUE -> BooleanNode.TRUE;
            case VALUE_FALSE -> BooleanNode.FALSE;
            case VALUE_NULL -> NullNode.getInstance();
            case START_OBJECT, START_ARRAY -> p.readValueAsTree();
            default -> null;
        };
    }

    /**
     * The message's fields as the map of an object node, for the keywords that look at it whole.
     */
    private final class Fields extends AbstractMap<String, JsonNode> {
        private final JsonNode[] values;
        private final int present;

        Fields(JsonNode[] values, int present) {
            this.values = values;
            this.present = present;
        }

        @Override
        public JsonNode get(Object name) {
            Integer i = positions.get(name);
            return i == null ? null : values[i];
        }

        @Override
        public boolean containsKey(Object name) {
            return get(name) != null;
        }

        @Override
        public int size() {
            return present;
        }

        /**
         * The fields in the schema's order, made only when something walks them all (const or enum
         * on the whole object, a subschema with as many properties as the message has fields).
         */
        @Override
        public Set<Map.Entry<String, JsonNode>> entrySet() {
            Map<String, JsonNode> all = new LinkedHashMap<>();
            for (int i = 0; i < values.length; i++) {
                if (values[i] != null) {
                    all.put(names[i], values[i]);
                }
            }
            return all.entrySet();
        }
    }
}
