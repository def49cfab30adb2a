package org.longhaul.flink.validate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A contract schema compiled once into plain checks on a parsed message, for the hot path: a
 * message that is certainly valid skips networknt, which builds a validation context and walks
 * every keyword for each message (about half of what reading a raw message costs; docs/
 * benchmarks-log.md, <i>2026-11-25: Hot path, stage by stage</i>).
 *
 * <p>It is not a second validator of the contract: networknt stays the judge of every message this
 * one does not call {@link Verdict#VALID}, and writes the dead letter's reasons. Hence each keyword
 * answers VALID only where the schema's meaning is certain (draft 2020-12, read as networknt 1.5
 * reads it: JDK regular expressions found anywhere in the string, lengths in code points), and
 * UNSURE on any doubt: a keyword it does not know, a floating-point number against an integer type,
 * numbers compared for equality. {@link #unsupported()} lists the keywords it left to networknt;
 * the contract's schemas have none (CompiledSchemaTest holds it to networknt's verdicts on tens of
 * thousands of mutated examples).
 *
 * <p>Each (sub)schema is one {@link SchemaCheck} holding all its keywords, so that checking a
 * message is a walk of one class the JIT compiles whole, not a chain of small functions.
 */
final class CompiledSchema {
    /** Keywords with no say on validity. */
    private static final Set<String> ANNOTATIONS =
            Set.of(
                    "$schema",
                    "$id",
                    "$comment",
                    "$defs",
                    "title",
                    "description",
                    "examples",
                    "default",
                    "deprecated",
                    "readOnly",
                    "writeOnly");

    private final SchemaCheck root;
    private final List<String> unsupported;

    private CompiledSchema(SchemaCheck root, List<String> unsupported) {
        this.root = root;
        this.unsupported = List.copyOf(unsupported);
    }

    static CompiledSchema compile(JsonNode schema) {
        Compiler c = new Compiler(schema);
        return new CompiledSchema(c.compile(schema, "#"), c.unsupported);
    }

    Verdict check(JsonNode message) {
        return root.check(message);
    }

    /**
     * The root's properties, in the order {@link #checkFields} takes their values (empty when it
     * has none).
     */
    String[] fields() {
        return root.fieldNames();
    }

    /**
     * {@link #check} of an object given as its fields' values in the order of {@link #fields} (null
     * when absent), and as a node for what looks at it whole (if/then and the like).
     */
    Verdict checkFields(JsonNode view, JsonNode[] values, int present) {
        return root.checkFields(view, values, present);
    }

    /**
     * Where the schema uses a keyword left to networknt ("#/properties/x/format"); empty when none.
     */
    List<String> unsupported() {
        return unsupported;
    }

    /** Reads a schema's keywords into {@link SchemaCheck}s, noting those it leaves to networknt. */
    private static final class Compiler {
        private final JsonNode rootSchema;
        private final Map<String, SchemaCheck> refs = new HashMap<>();
        private final List<String> unsupported = new ArrayList<>();

        Compiler(JsonNode rootSchema) {
            this.rootSchema = rootSchema;
        }

        SchemaCheck compile(JsonNode schema, String at) {
            SchemaCheck s = new SchemaCheck();
            if (schema.isBoolean()) {
                s.constant = Verdict.of(schema.booleanValue());
                return s;
            }
            if (!schema.isObject()) {
                unsure(s, at);
                return s;
            }
            String[] required = null;
            for (Iterator<String> it = schema.fieldNames(); it.hasNext(); ) {
                String key = it.next();
                JsonNode names = schema.get(key);
                if (key.equals("required") && names.isArray()) {
                    required = new String[names.size()];
                    for (int i = 0; i < required.length; i++) {
                        required[i] = names.get(i).asText();
                    }
                } else if (!ANNOTATIONS.contains(key) && !keyword(s, schema, key, at + "/" + key)) {
                    unsure(s, at + "/" + key);
                }
            }
            s.seal(required);
            return s;
        }

        private void unsure(SchemaCheck s, String at) {
            unsupported.add(at);
            s.constant = Verdict.UNSURE;
        }

        /** Reads one keyword into {@code s}; false when it is one this class does not know. */
        private boolean keyword(SchemaCheck s, JsonNode schema, String key, String at) {
            JsonNode v = schema.get(key);
            switch (key) {
                case "type" -> {
                    Iterable<JsonNode> names = v.isArray() ? v : List.of(v);
                    for (JsonNode name : names) {
                        int bit = SchemaCheck.typeBit(name.asText());
                        if (bit == 0) {
                            return false;
                        }
                        s.types |= bit;
                    }
                }
                case "const" -> s.allowed = new JsonNode[] {v};
                case "enum" -> {
                    if (!v.isArray()) {
                        return false;
                    }
                    s.allowed = new JsonNode[v.size()];
                    for (int i = 0; i < v.size(); i++) {
                        s.allowed[i] = v.get(i);
                    }
                }
                case "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum" -> {
                    if (!SchemaCheck.exactWhole(v)) {
                        return false;
                    }
                    boolean exclusive = key.startsWith("exclusive");
                    if (key.endsWith("inimum")) {
                        s.min = v.doubleValue();
                        s.minExclusive = exclusive;
                    } else {
                        s.max = v.doubleValue();
                        s.maxExclusive = exclusive;
                    }
                }
                case "minLength",
                        "maxLength",
                        "minProperties",
                        "maxProperties",
                        "minItems",
                        "maxItems" -> {
                    if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < 0) {
                        return false;
                    }
                    int n = v.intValue();
                    switch (key) {
                        case "minLength" -> s.minLength = n;
                        case "maxLength" -> s.maxLength = n;
                        case "minProperties" -> s.minProperties = n;
                        case "maxProperties" -> s.maxProperties = n;
                        case "minItems" -> s.minItems = n;
                        default -> s.maxItems = n;
                    }
                }
                case "pattern" -> {
                    try {
                        s.pattern = java.util.regex.Pattern.compile(v.asText());
                        s.classPattern = CharClassPattern.of(v.asText());
                    } catch (java.util.regex.PatternSyntaxException e) {
                        return false;
                    }
                }
                case "properties" -> {
                    s.properties = new HashMap<>();
                    for (Iterator<Map.Entry<String, JsonNode>> it = v.properties().iterator();
                            it.hasNext(); ) {
                        Map.Entry<String, JsonNode> e = it.next();
                        s.properties.put(
                                e.getKey(),
                                new SchemaCheck.Property(
                                        compile(e.getValue(), at + "/" + e.getKey()), false));
                    }
                }
                case "additionalProperties" -> s.additional = compile(v, at);
                case "propertyNames" -> s.propertyNames = compile(v, at);
                case "items" -> {
                    if (schema.has("prefixItems")) {
                        return false;
                    }
                    s.items = compile(v, at);
                }
                case "allOf", "anyOf", "oneOf" -> {
                    if (!v.isArray()) {
                        return false;
                    }
                    SchemaCheck[] subs = subschemas(v, at);
                    switch (key) {
                        case "allOf" -> s.allOf = subs;
                        case "anyOf" -> s.anyOf = subs;
                        default -> s.oneOf = subs;
                    }
                }
                case "not" -> s.not = compile(v, at);
                case "if" -> s.when = compile(v, at);
                case "then" -> s.then = compile(v, at);
                case "else" -> s.otherwise = compile(v, at);
                case "$ref" -> {
                    SchemaCheck target = ref(v.asText());
                    if (target == null) {
                        return false;
                    }
                    s.ref = target;
                }
                default -> {
                    return false;
                }
            }
            return true;
        }

        private SchemaCheck[] subschemas(JsonNode array, String at) {
            SchemaCheck[] out = new SchemaCheck[array.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = compile(array.get(i), at + "/" + i);
            }
            return out;
        }

        /**
         * A reference within the document ("#" or "#/$defs/x"), compiled once (a placeholder first,
         * so it may recurse).
         */
        private SchemaCheck ref(String ref) {
            JsonNode target =
                    ref.equals("#")
                            ? rootSchema
                            : ref.startsWith("#/") ? rootSchema.at(ref.substring(1)) : null;
            if (target == null || target.isMissingNode()) {
                return null;
            }
            SchemaCheck known = refs.get(ref);
            if (known != null) {
                return known;
            }
            SchemaCheck holder = new SchemaCheck();
            refs.put(ref, holder);
            holder.ref = compile(target, ref);
            holder.seal(null);
            return holder;
        }
    }
}
