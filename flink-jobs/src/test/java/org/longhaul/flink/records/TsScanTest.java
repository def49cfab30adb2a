package org.longhaul.flink.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.testing.ContractFiles;
import org.longhaul.flink.testing.ContractRecords;
import org.longhaul.flink.testing.JsonMutations;

/**
 * The plain scan of {@code ts} against Jackson's peek, the judge: on every contract example, on
 * tens of thousands of mutated ones (edited as JSON, then written compact or spaced) and on
 * byte-level damage of the bytes before {@code ts}, whatever the scan decides, Jackson answers the
 * same; what it does not decide goes to Jackson.
 */
class TsScanTest {
    private static final int MUTANTS_PER_EXAMPLE = 300;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Asserts the scan's answer, when it gives one, is Jackson's; true when it gave one. */
    private static boolean agrees(byte[] bytes, String what) {
        Long judge = Json.peekTsByParser(bytes);
        assertEquals(
                judge,
                Json.peekTs(bytes),
                () -> what + ": " + new String(bytes, StandardCharsets.UTF_8));
        return TsScan.ts(bytes) != TsScan.UNSURE;
    }

    @Test
    void decidesEveryValidRawSampleExampleAsJacksonDoes() throws IOException {
        int decided = 0;
        for (Path f : ContractFiles.examples("valid")) {
            byte[] bytes = Files.readAllBytes(f);
            byte[] compact = Json.mapper().writeValueAsBytes(Json.mapper().readTree(bytes));
            agrees(bytes, f.toString());
            if (agrees(compact, f + " (compact)")) {
                decided++;
            }
        }
        for (String schema : ContractRecords.raw().keySet()) {
            for (Path f : ContractFiles.examples(schema, "valid")) {
                byte[] compact =
                        Json.mapper().writeValueAsBytes(Json.mapper().readTree(f.toFile()));
                assertNotEquals(
                        TsScan.UNSURE,
                        TsScan.ts(compact),
                        () -> f + ": a plain sample left to Jackson");
            }
        }
        assertTrue(decided > 20, decided + " examples decided");
    }

    @Test
    void neverAnswersAMutatedExampleOtherwiseThanJackson() throws IOException {
        Random random = new Random(20261125);
        int decided = 0;
        int left = 0;
        for (String kind : List.of("valid", "invalid")) {
            for (Path f : ContractFiles.examples(kind)) {
                JsonNode example = Json.mapper().readTree(f.toFile());
                if (!example.isContainerNode()) {
                    continue;
                }
                for (int i = 0; i < MUTANTS_PER_EXAMPLE; i++) {
                    JsonNode mutant = example.deepCopy();
                    JsonMutations.mutate(mutant, random);
                    byte[] bytes =
                            random.nextBoolean()
                                    ? Json.mapper().writeValueAsBytes(mutant)
                                    : Json.mapper()
                                            .writerWithDefaultPrettyPrinter()
                                            .writeValueAsBytes(mutant);
                    if (agrees(bytes, f + " mutated")) {
                        decided++;
                    } else {
                        left++;
                    }
                }
            }
        }
        JsonMutations.assertSplit("ts scan", decided, "decided", 10_000, left, "Jackson", 1_000);
    }

    /**
     * Bytes inserted, dropped or changed before and around ts: broken JSON included, the answers
     * stay Jackson's.
     */
    @Test
    void neverAnswersDamagedBytesOtherwiseThanJackson() throws IOException {
        byte[] alphabet = utf8("{}[]\",:\\ \t\n-+.eE0123456789tsrufanlx\u00e9");
        Random random = new Random(7);
        int decided = 0;
        for (Path f : ContractFiles.examples("valid")) {
            byte[] clean = Json.mapper().writeValueAsBytes(Json.mapper().readTree(f.toFile()));
            int reach =
                    Math.min(
                            clean.length,
                            new String(clean, StandardCharsets.UTF_8).indexOf("\"ts\"") + 24);
            for (int i = 0; i < 400 && reach > 0; i++) {
                byte[] bytes = clean.clone();
                int at = random.nextInt(reach);
                switch (random.nextInt(3)) {
                    case 0 -> bytes[at] = alphabet[random.nextInt(alphabet.length)];
                    case 1 -> bytes = splice(bytes, at, 1, new byte[0]);
                    default ->
                            bytes =
                                    splice(
                                            bytes,
                                            at,
                                            0,
                                            new byte[] {alphabet[random.nextInt(alphabet.length)]});
                }
                if (agrees(bytes, f + " damaged at " + at)) {
                    decided++;
                }
            }
        }
        assertTrue(decided > 1_000, decided + " decided");
    }

    @Test
    void leavesWhatIsNotPlainToJackson() {
        for (String s :
                List.of(
                        "\uFEFF{\"ts\":1700000000000}", // a BOM
                        "{\"t\\u0073\":1700000000000}", // an escaped name
                        "{\"a\":{\"ts\":1},\"ts\":1700000000000}", // a nested value before ts
                        "{\"a\":\"caf\u00e9\",\"ts\":1700000000000}", // a non-ASCII byte
                        "{\"ts\":1.7e12}",
                        "{\"ts\":-1700000000000}",
                        "{\"ts\":01700000000000}",
                        "{\"ts\":1700000000000", // the end of the bytes
                        "{\"ts\":99999999999999999999999}",
                        "{\"a\":01,\"ts\":1700000000000}",
                        "{\"a\":1.,\"ts\":1700000000000}",
                        "{\"a\":tru,\"ts\":1700000000000}",
                        "{\"a\":1 \"ts\":1700000000000}",
                        "[1700000000000]",
                        "{}",
                        "")) {
            byte[] bytes = utf8(s);
            assertEquals(TsScan.UNSURE, bytes.length == 0 ? TsScan.UNSURE : TsScan.ts(bytes), s);
            agrees(bytes, s);
        }
        for (String s :
                List.of(
                        "{\"ts\":1700000000000}",
                        " {\n\t\"a\" : \"x\" , \"b\":-1.5E+3,\"c\":null,\"d\":true,"
                                + "\"e\":false, \"ts\" : 1700000000000 ,\"f\":[}",
                        "{\"ts\":5}",
                        "{\"ts\":0,\"ts\":1700000000000}")) {
            assertTrue(agrees(utf8(s), s), s + " left to Jackson");
        }
        assertEquals(
                1_700_000_000_000L,
                Json.peekTs(utf8(" {\"a\":\"x\",\"ts\" : 1700000000000 ,\"f\":[}")));
        assertEquals(null, Json.peekTs(utf8("{\"ts\":5}")), "out of the contract's range");
    }

    private static byte[] splice(byte[] b, int at, int remove, byte[] insert) {
        byte[] out = new byte[b.length - remove + insert.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(b, at + remove, out, at + insert.length, b.length - at - remove);
        return out;
    }
}
