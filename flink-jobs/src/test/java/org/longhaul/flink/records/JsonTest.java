package org.longhaul.flink.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reader of raw messages: the same trees as the mapper's, doubles included, and whole documents
 * only.
 */
class JsonTest {

    /**
     * Numbers as agents and other producers may write them: shortest forms, long mantissas,
     * exponents, edges.
     */
    private static List<String> numbers(Random random, int n) {
        List<String> out =
                new ArrayList<>(
                        List.of(
                                "0.0",
                                "-0.0",
                                "0.1",
                                "1e0",
                                "1E-0",
                                "4.9e-324",
                                "2.4703282292062327e-324",
                                "2.2250738585072011e-308",
                                "2.2250738585072012e-308",
                                "1.7976931348623157e308",
                                "1.7976931348623158e308",
                                "1e309",
                                "-1e400",
                                "1e-400",
                                "9007199254740993.0",
                                "0.30000000000000004",
                                "123456789012345678901234567890.5"));
        for (int i = 0; i < n; i++) {
            switch (i % 4) {
                case 0 ->
                        out.add(
                                Double.toString(Double.longBitsToDouble(random.nextLong()))
                                        .replace("Infinity", "1e999")
                                        .replace("NaN", "0.5"));
                case 1 ->
                        out.add(
                                Double.toString(
                                        random.nextDouble()
                                                * Math.pow(10, random.nextInt(40) - 20)));
                case 2 -> {
                    StringBuilder s = new StringBuilder(random.nextBoolean() ? "-" : "");
                    s.append(1 + random.nextInt(9));
                    for (int d = random.nextInt(25); d > 0; d--) {
                        s.append(random.nextInt(10));
                    }
                    s.append('.').append(random.nextInt(10));
                    out.add(s.append('e').append(random.nextInt(660) - 330).toString());
                }
                default -> out.add(String.format("%.3f", random.nextDouble() * 1e10));
            }
        }
        return out;
    }

    @Test
    void messagesGiveTheSameDoublesAsTheJdksParser() throws JsonProcessingException {
        for (String n : numbers(new Random(20261126), 200_000)) {
            JsonNode fast = Json.messages().readTree("{\"x\":" + n + "}").get("x");
            assertEquals(
                    Double.doubleToRawLongBits(Double.parseDouble(n)),
                    Double.doubleToRawLongBits(fast.doubleValue()),
                    n);
            assertEquals(Json.mapper().readTree("{\"x\":" + n + "}").get("x"), fast, n);
        }
    }

    @Test
    void messagesAreWholeDocuments() {
        assertThrows(
                JsonProcessingException.class,
                () -> Json.messages().readTree("{\"a\":1} {\"a\":2}"));
        assertThrows(JsonProcessingException.class, () -> Json.messages().readTree("{\"a\":1}]"));
    }
}
