package org.longhaul.flink.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.ContractAssert.assertValid;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.testing.ContractFiles;
import org.longhaul.flink.testing.Samples;

class MessageValidatorTest {
    private static final long NOW = 1_700_000_000_000L;
    private final MessageValidator validator =
            new MessageValidator(SchemaRegistry.bundled(), "flink:validate");

    private DeadLetter reject(String payload) {
        var checked = throughput(RawMessage.of("longhaul.raw.throughput", 2, 1041L, payload));
        assertFalse(checked.valid(), "accepted: " + payload);
        assertValid(Contract.DEAD_LETTER, checked.deadLetter());
        return checked.deadLetter();
    }

    @Test
    void truncatedJsonBecomesADeadLetterWithUnknownLinkAndItsBytes() {
        DeadLetter d = reject("{\"schema\":\"throug");
        assertTrue(d.reason().startsWith("not JSON: "), d.reason());
        assertEquals("unknown", d.src());
        assertEquals("unknown", d.dst());
        assertEquals("unknown", d.probeId());
        assertEquals("{\"schema\":\"throug", d.payload());
        assertEquals("longhaul.raw.throughput", d.sourceTopic());
        assertEquals(2, d.partition());
        assertEquals(1041L, d.offset());
        assertEquals(NOW, d.ts());
        assertEquals("flink:validate", d.rejectedBy());
    }

    @Test
    void reasonNamesThePathAndTheLinkComesFromThePayload() {
        var sample = Samples.interval(Samples.SRC, Samples.DST, "r1", Samples.T0, 0, 1, 1e6);
        sample.put("ts", 1_325_746_800L);
        DeadLetter d = reject(sample.toString());
        assertTrue(d.reason().contains("$.ts"), d.reason());
        assertEquals(Samples.SRC, d.src());
        assertEquals(Samples.DST, d.dst());
        assertEquals("tcp-default", d.probeId());
    }

    @Test
    void hostsThatBreakTheHostPatternAreNotCopied() {
        var sample = Samples.interval(Samples.SRC, "-c;rm", "r1", Samples.T0, 0, 1, 1e6);
        DeadLetter d = reject(sample.toString());
        assertTrue(d.reason().contains("$.dst"), d.reason());
        assertEquals(Samples.SRC, d.src());
        assertEquals("unknown", d.dst());
    }

    @Test
    void aMessageOfAnotherSchemaOnThisTopicIsRejected() {
        DeadLetter d =
                reject(
                        Samples.ping(Samples.SRC, Samples.DST, Samples.T0, 10, 10, 283, 0.4)
                                .toString());
        assertTrue(d.reason().contains("$.schema"), d.reason());
    }

    /**
     * Issue 46: a path sample whose first "src" was another site's and whose last its own passed
     * the job (Jackson keeps the last copy) and reached InfluxDB under the other site's name
     * (Telegraf keeps the first). A key given twice, at any depth, is a dead letter.
     */
    @Test
    void aKeyGivenTwiceAtAnyDepthIsADeadLetter() throws IOException {
        String path =
                Files.readString(
                        ContractFiles.examplesDir()
                                .resolve("path_sample.v2/valid/reached-with-star-and-ecmp.json"));
        assertTrue(check(path).valid(), "the contract's example");
        // another site's src first, the writer's own last: the attack of issue 46
        String src = path.replaceFirst("\"src\":", "\"src\": \"victim-site\", \"src\":");
        DeadLetter top = check(src).deadLetter();
        assertTrue(top.reason().startsWith("a key given twice: "), top.reason());
        assertTrue(top.reason().contains("'src'"), top.reason());
        // and inside a hop
        String hop = path.replaceFirst("\"ttl\": 1,", "\"ttl\": 9, \"ttl\": 1,");
        assertTrue(!hop.equals(path), "the example has a first hop");
        assertTrue(check(hop).deadLetter().reason().startsWith("a key given twice: "));
    }

    private Checked<ThroughputSample> throughput(RawMessage raw) {
        return validator.check(raw, Contract.THROUGHPUT, ThroughputSample.class, NOW);
    }

    private Checked<PathSample> check(String payload) {
        return validator.check(
                RawMessage.of("longhaul.raw.path", 0, 7L, payload),
                Contract.PATH,
                PathSample.class,
                NOW);
    }

    @Test
    void emptyAndTrailingGarbageAreNotJson() {
        assertTrue(reject("").reason().startsWith("not JSON"));
        assertTrue(reject("{} {}").reason().startsWith("not JSON"));
        assertTrue(reject("[1,2]").reason().contains("$"));
    }

    @Test
    void invalidUtf8IsNotJsonAndTheDeadLetterKeepsTheRestOfTheText() {
        String json = interval().toString();
        byte[] bytes =
                json.replace("\"r1\"", "\"r?\"").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        bytes[json.indexOf("\"r1\"") + 2] = (byte) 0xFF;
        var checked = throughput(RawMessage.of("t", 0, 0L, bytes));
        assertFalse(checked.valid());
        assertTrue(
                checked.deadLetter().reason().startsWith("not JSON: Invalid UTF-8"),
                checked.deadLetter().reason());
        assertTrue(
                checked.deadLetter().payload().contains("\"r\uFFFD\""),
                checked.deadLetter().payload());
        assertEquals(
                DeadLetter.UNKNOWN,
                checked.deadLetter().src(),
                "nothing is read from a message that does not parse");
    }

    @Test
    void tsIsPeekedFromBytesAndStringsAlike() {
        var json = interval().toString();
        assertEquals(
                Json.peekTs(json),
                Json.peekTs(json.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals(null, Json.peekTs("{\"ts\": 1.5e12}"));
        assertEquals(null, Json.peekTs("{\"ts\": 99999999999999999999999}"));
        assertEquals(null, Json.peekTs(new byte[] {(byte) 0xFF}));
    }

    @Test
    void aValidIntervalParsesIntoItsRecord() {
        var json = interval().toString();
        var checked = throughput(RawMessage.of("t", 0, 0L, json));
        assertTrue(checked.valid());
        assertEquals(2.8e6, checked.value().bitsPerSecond());
        assertEquals(Samples.T0 + 1000, checked.value().ts());
        assertEquals(Samples.T0 + 1000, Json.peekTs(json));
    }

    /**
     * A topic takes every version up to its schema's: an agent not yet upgraded keeps being read.
     */
    @Test
    void aTopicTakesEveryVersionUpToItsOwnAndJudgesEachByItsSchema() {
        var v1 = interval().put("version", 1);
        assertTrue(throughput(RawMessage.of("t", 0, 0L, v1.toString())).valid());
        var v2 = v1.deepCopy().put("version", 2).put("snd_wnd_bytes", 65536L);
        v2.putObject("labels").put("src.display-name", "IHEP Beijing");
        var checked = throughput(RawMessage.of("t", 0, 0L, v2.toString()));
        assertTrue(checked.valid(), () -> checked.deadLetter().reason());
        assertEquals(65536L, checked.value().sndWndBytes());
        var v1WithLabels = v2.deepCopy().put("version", 1);
        var old = throughput(RawMessage.of("t", 0, 0L, v1WithLabels.toString()));
        assertTrue(
                old.deadLetter().reason().startsWith("not a valid throughput_sample.v1: "),
                old.deadLetter().reason());
        var v3 = v1.deepCopy().put("version", 3);
        var future = throughput(RawMessage.of("t", 0, 0L, v3.toString()));
        assertTrue(
                future.deadLetter()
                        .reason()
                        .startsWith("not a valid throughput_sample.v2: $.version"),
                future.deadLetter().reason());
    }

    /** The test's interval record: run r1's second second, at 2.8 Mbit/s. */
    private static ObjectNode interval() {
        return Samples.interval(Samples.SRC, Samples.DST, "r1", Samples.T0, 0, 1, 2.8e6);
    }
}
