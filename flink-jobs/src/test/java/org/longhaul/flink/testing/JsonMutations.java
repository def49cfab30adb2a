package org.longhaul.flink.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random edits of a contract example, for tests that hold two implementations to the same answer
 * (compiled schemas against networknt, the record binder against Jackson): a field dropped,
 * retyped, stretched past a bound, given a newline or an emoji, an unknown field added...
 */
public final class JsonMutations {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private JsonMutations() {}

    /** A copy of {@code example} with one to three edits ({@link #mutate}). */
    public static JsonNode mutant(JsonNode example, Random random) {
        JsonNode mutant = example.deepCopy();
        for (int k = 1 + random.nextInt(3); k > 0; k--) {
            mutate(mutant, random);
        }
        return mutant;
    }

    /**
     * Edits one place of {@code root} in place: a field added, dropped or given a new value; an
     * array item added, dropped or changed.
     */
    public static void mutate(JsonNode root, Random random) {
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

    /**
     * A replacement for {@code old}: near it (a bound's edge, a retyped number, a changed string)
     * or anything.
     */
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

    /**
     * Reports how a fast path split the mutated examples, those it answered itself ({@code how}:
     * "bound", "read") and those it left to the slow path, and holds each count above its floor:
     * both paths must have been exercised.
     */
    public static void assertSplit(
            String fastPath,
            int answered,
            String how,
            int minAnswered,
            int left,
            String slowPath,
            int minLeft) {
        System.out.println(
                fastPath
                        + " on mutated examples: "
                        + answered
                        + " "
                        + how
                        + ", "
                        + left
                        + " left to "
                        + slowPath);
        assertTrue(answered > minAnswered, answered + " " + how);
        assertTrue(left > minLeft, left + " left to " + slowPath);
    }
}
