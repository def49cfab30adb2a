package org.longhaul.flink.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One compiled (sub)schema: its keywords as fields, its verdict on an instance in {@link #check}.
 * Built by {@link CompiledSchema}; a field left at its default is a keyword the schema does not
 * use. Every keyword applies only to instances of its type (minimum to numbers, properties to
 * objects...), as in JSON Schema.
 */
final class SchemaCheck {
    static final int NONE = -1;
    private static final double EXACT_DOUBLE = 0x1p53;

    private static final int NULL = 1;
    private static final int BOOLEAN = 2;
    private static final int STRING = 4;
    private static final int OBJECT = 8;
    private static final int ARRAY = 16;
    private static final int NUMBER = 32;
    private static final int INTEGER = 64;

    /**
     * Set for a boolean schema or one with a keyword left to networknt: the verdict, whatever the
     * instance.
     */
    Verdict constant;

    int types;
    JsonNode[] allowed;
    double min = Double.NaN;
    double max = Double.NaN;
    boolean minExclusive;
    boolean maxExclusive;
    int minLength = NONE;
    int maxLength = NONE;
    Pattern pattern;

    /**
     * The pattern's tables when it has the shape they read (null otherwise): a yes without the
     * regex.
     */
    CharClassPattern classPattern;

    Map<String, Property> properties;

    /** {@link #properties} as arrays, to look each up in a message with more fields than that. */
    private String[] namedKeys;

    private Property[] named;

    /** Required names without a property of their own, looked up one by one. */
    String[] requiredElsewhere;

    /** How many of the properties are required: an object must have every one. */
    int requiredAmongProperties;

    boolean hasApplicators;
    SchemaCheck additional;
    SchemaCheck propertyNames;
    int minProperties = NONE;
    int maxProperties = NONE;
    SchemaCheck items;
    int minItems = NONE;
    int maxItems = NONE;
    SchemaCheck[] allOf;
    SchemaCheck[] anyOf;
    SchemaCheck[] oneOf;
    SchemaCheck not;
    SchemaCheck when;
    SchemaCheck then;
    SchemaCheck otherwise;
    SchemaCheck ref;

    /** A named property: its schema, and whether it is required. */
    record Property(SchemaCheck schema, boolean required) {}

    /** Called once all keywords are read: the required names joined to their properties. */
    void seal(String[] required) {
        hasApplicators =
                ref != null
                        || allOf != null
                        || anyOf != null
                        || oneOf != null
                        || not != null
                        || when != null;
        if (required != null) {
            List<String> elsewhere = new ArrayList<>();
            for (String name : new LinkedHashSet<>(List.of(required))) {
                Property p = properties == null ? null : properties.get(name);
                if (p == null) {
                    elsewhere.add(name);
                } else {
                    properties.put(name, new Property(p.schema(), true));
                    requiredAmongProperties++;
                }
            }
            requiredElsewhere = elsewhere.isEmpty() ? null : elsewhere.toArray(new String[0]);
        }
        if (properties != null) {
            namedKeys = properties.keySet().toArray(new String[0]);
            named = new Property[namedKeys.length];
            for (int i = 0; i < named.length; i++) {
                named[i] = properties.get(namedKeys[i]);
            }
        }
    }

    /** The bit of a "type" name, 0 for a name JSON Schema does not have. */
    static int typeBit(String name) {
        return switch (name) {
            case "null" -> NULL;
            case "boolean" -> BOOLEAN;
            case "string" -> STRING;
            case "object" -> OBJECT;
            case "array" -> ARRAY;
            case "number" -> NUMBER;
            case "integer" -> INTEGER;
            default -> 0;
        };
    }

    /** A bound compared exactly with any double: a whole number a double holds exactly. */
    static boolean exactWhole(JsonNode v) {
        return v.isNumber()
                && v.doubleValue() == Math.rint(v.doubleValue())
                && Math.abs(v.doubleValue()) <= EXACT_DOUBLE;
    }

    Verdict check(JsonNode node) {
        if (constant != null) {
            return constant;
        }
        JsonNodeType t = node.getNodeType();
        int bit =
                switch (t) {
                    case STRING -> STRING;
                    case NUMBER -> node.isIntegralNumber() ? INTEGER | NUMBER : NUMBER;
                    case OBJECT -> OBJECT;
                    case ARRAY -> ARRAY;
                    case BOOLEAN -> BOOLEAN;
                    case NULL -> NULL;
                    default -> 0; // binary, POJO, missing: not from a parsed message
                };
        if (bit == 0) {
            return Verdict.UNSURE;
        }
        Verdict v = typeAndAllowed(node, bit);
        if (v == Verdict.INVALID) {
            return v;
        }
        v =
                v.and(
                        switch (t) {
                            case NUMBER -> bounds(node);
                            case STRING -> string(node.textValue());
                            case OBJECT -> object(node);
                            case ARRAY -> array(node);
                            default -> Verdict.VALID;
                        });
        return withApplicators(node, v);
    }

    /** "type", then const and enum: what every instance is judged by first. */
    private Verdict typeAndAllowed(JsonNode node, int bit) {
        Verdict v = types == 0 ? Verdict.VALID : type(bit);
        return v == Verdict.INVALID || allowed == null ? v : v.and(allowed(node));
    }

    /** {@code v} and, unless it is already INVALID, the applicators' verdict on {@code node}. */
    private Verdict withApplicators(JsonNode node, Verdict v) {
        return v == Verdict.INVALID || !hasApplicators ? v : v.and(applicators(node));
    }

    /** 1.0 is an integer in 2020-12; whether networknt agrees is its call. */
    private Verdict type(int bit) {
        if ((types & bit) != 0) {
            return Verdict.VALID;
        }
        return bit == NUMBER && (types & INTEGER) != 0 ? Verdict.UNSURE : Verdict.INVALID;
    }

    /**
     * const and enum: equal text, booleans and null are certain; numbers and containers are not
     * (Jackson's equals tells an int from a long of the same value).
     */
    private Verdict allowed(JsonNode node) {
        for (JsonNode a : allowed) {
            if (a.equals(node)) {
                return Verdict.VALID;
            }
        }
        return node.isNumber() || node.isContainerNode() ? Verdict.UNSURE : Verdict.INVALID;
    }

    /**
     * Exact for integers within a double's exact range and for doubles (networknt sees the same
     * double; -0.0 equals 0); bounds are whole numbers (CompiledSchema).
     */
    private Verdict bounds(JsonNode node) {
        if (Double.isNaN(min) && Double.isNaN(max)) {
            return Verdict.VALID;
        }
        double x;
        if (node.isIntegralNumber()) {
            if (!node.canConvertToLong() || Math.abs((double) node.longValue()) > EXACT_DOUBLE) {
                return Verdict.UNSURE;
            }
            x = node.longValue();
        } else if (node.isDouble() || node.isFloat()) {
            x = node.doubleValue();
            if (Double.isInfinite(x) || Double.isNaN(x)) {
                return Verdict.UNSURE;
            }
        } else {
            return Verdict.UNSURE;
        }
        boolean ok =
                (Double.isNaN(min) || (minExclusive ? x > min : x >= min))
                        && (Double.isNaN(max) || (maxExclusive ? x < max : x <= max));
        return Verdict.of(ok);
    }

    /**
     * Lengths in code points; a string whose UTF-16 length gives another verdict is left to
     * networknt.
     */
    private Verdict string(String s) {
        if (minLength >= 0 || maxLength >= 0) {
            int units = s.length();
            boolean byUnits = units >= minLength && (maxLength < 0 || units <= maxLength);
            int points = s.codePointCount(0, units);
            boolean byPoints = points >= minLength && (maxLength < 0 || points <= maxLength);
            if (byUnits != byPoints) {
                return Verdict.UNSURE;
            }
            if (!byPoints) {
                return Verdict.INVALID;
            }
        }
        return pattern == null
                        || classPattern != null && classPattern.accepts(s)
                        || pattern.matcher(s).find()
                ? Verdict.VALID
                : Verdict.INVALID;
    }

    /** The names of the properties, in the order {@link #checkFields} takes their values. */
    String[] fieldNames() {
        return namedKeys == null ? new String[0] : namedKeys.clone();
    }

    /**
     * {@link #check} of an object whose only fields are named properties: {@code values[i]} the
     * value of {@code fieldNames()[i]}, null when absent, {@code present} of them given. The same
     * verdict as {@link #check} of {@code view}, the same object as a node (for the applicators),
     * without looking each field up by its name.
     */
    Verdict checkFields(JsonNode view, JsonNode[] values, int present) {
        if (constant != null) {
            return constant;
        }
        if (named == null) {
            return Verdict.UNSURE;
        }
        Verdict v = typeAndAllowed(view, OBJECT);
        if (v == Verdict.INVALID) {
            return v;
        }
        if (present < minProperties
                || (maxProperties >= 0 && present > maxProperties)
                || requiredElsewhere != null) {
            return Verdict
                    .INVALID; // a required name that is no property cannot be among the fields
        }
        return withApplicators(view, v.and(namedFields(values)));
    }

    /**
     * One pass over the message's fields: each against its property (or additionalProperties) and
     * propertyNames, counting the required ones met on the way instead of looking each up.
     */
    private Verdict object(JsonNode node) {
        int size = node.size();
        if (size < minProperties || (maxProperties >= 0 && size > maxProperties)) {
            return Verdict.INVALID;
        }
        if (requiredElsewhere != null) {
            for (String name : requiredElsewhere) {
                if (!node.has(name)) {
                    return Verdict.INVALID;
                }
            }
        }
        if (properties == null && additional == null && propertyNames == null) {
            return Verdict.VALID;
        }
        if (additional == null && propertyNames == null && named.length < size) {
            return namedOnly(node);
        }
        Verdict v = Verdict.VALID;
        int requiredMet = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
                it.hasNext() && v != Verdict.INVALID; ) {
            Map.Entry<String, JsonNode> f = it.next();
            Property p = properties == null ? null : properties.get(f.getKey());
            SchemaCheck c = additional;
            if (p != null) {
                c = p.schema;
                requiredMet += p.required ? 1 : 0;
            }
            if (c != null) {
                v = v.and(c.check(f.getValue()));
            }
            if (propertyNames != null) {
                v = v.and(propertyNames.check(TextNode.valueOf(f.getKey())));
            }
        }
        return requiredMet == requiredAmongProperties ? v : Verdict.INVALID;
    }

    /**
     * {@link #object} when only the named properties have a say (no additionalProperties, no
     * propertyNames) and they are fewer than the message's fields, as in an if/then of a few of
     * them: each looked up in the message instead of every field looked up among them.
     */
    private Verdict namedOnly(JsonNode node) {
        JsonNode[] values = new JsonNode[named.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = node.get(namedKeys[i]);
        }
        return namedFields(values);
    }

    /**
     * The named properties' verdict on their values ({@code values[i]} of {@code namedKeys[i]},
     * null when absent) and on their names, with every required one present.
     */
    private Verdict namedFields(JsonNode[] values) {
        Verdict v = Verdict.VALID;
        int requiredMet = 0;
        for (int i = 0; i < named.length && v != Verdict.INVALID; i++) {
            if (values[i] != null) {
                requiredMet += named[i].required ? 1 : 0;
                v = v.and(named[i].schema.check(values[i]));
                if (propertyNames != null) {
                    v = v.and(propertyNames.check(TextNode.valueOf(namedKeys[i])));
                }
            }
        }
        return requiredMet == requiredAmongProperties ? v : Verdict.INVALID;
    }

    private Verdict array(JsonNode node) {
        int size = node.size();
        if (size < minItems || (maxItems >= 0 && size > maxItems)) {
            return Verdict.INVALID;
        }
        Verdict v = Verdict.VALID;
        if (items != null) {
            for (int i = 0; i < size && v != Verdict.INVALID; i++) {
                v = v.and(items.check(node.get(i)));
            }
        }
        return v;
    }

    /** $ref, allOf, anyOf, oneOf, not, if/then/else. */
    private Verdict applicators(JsonNode node) {
        Verdict v = ref == null ? Verdict.VALID : ref.check(node);
        if (allOf != null) {
            for (SchemaCheck s : allOf) {
                v = v.and(s.check(node));
            }
        }
        if (anyOf != null) {
            Verdict any = Verdict.INVALID;
            for (SchemaCheck s : anyOf) {
                any = any.or(s.check(node));
            }
            v = v.and(any);
        }
        if (oneOf != null) {
            v = v.and(exactlyOne(node));
        }
        if (not != null) {
            Verdict inner = not.check(node);
            v = v.and(inner == Verdict.UNSURE ? inner : Verdict.of(inner == Verdict.INVALID));
        }
        if (when != null) {
            Verdict cond = when.check(node);
            SchemaCheck branch =
                    cond == Verdict.VALID ? then : cond == Verdict.INVALID ? otherwise : null;
            v =
                    v.and(
                            cond == Verdict.UNSURE
                                    ? Verdict.UNSURE
                                    : branch == null ? Verdict.VALID : branch.check(node));
        }
        return v;
    }

    private Verdict exactlyOne(JsonNode node) {
        int valid = 0;
        for (SchemaCheck s : oneOf) {
            Verdict v = s.check(node);
            if (v == Verdict.UNSURE) {
                return v;
            }
            valid += v == Verdict.VALID ? 1 : 0;
        }
        return Verdict.of(valid == 1);
    }
}
