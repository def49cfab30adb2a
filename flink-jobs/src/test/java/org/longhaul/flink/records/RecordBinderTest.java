package org.longhaul.flink.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.testing.ContractFiles;
import org.longhaul.flink.testing.ContractRecords;
import org.longhaul.flink.testing.JsonMutations;

/**
 * The record binder against Jackson, the judge: whatever the binder binds, Jackson binds to an
 * equal record, on every contract example and on tens of thousands of mutated ones; what it is not
 * sure of it leaves to Jackson (null), so {@link Json#convert} answers and fails as Jackson does.
 */
class RecordBinderTest {
    private static final int MUTANTS_PER_EXAMPLE = 1500;

    /**
     * The records the job binds raw messages to, by the schema of their examples (in name order:
     * the mutants repeat).
     */
    private static final Map<String, Class<?>> TYPES = ContractRecords.raw();

    private static Object bind(Class<?> type, JsonNode node) {
        return RecordBinder.of(
                        type, Json.mapper().getDeserializationConfig().getPropertyNamingStrategy())
                .orElseThrow()
                .bind(node);
    }

    /** Jackson's record, or the exception it throws. */
    private static Object jackson(Class<?> type, JsonNode node) {
        try {
            return Json.mapper().treeToValue(node, type);
        } catch (Exception e) {
            return e;
        }
    }

    @Test
    void bindsEveryValidExampleAsJacksonDoes() throws IOException {
        int bound = 0;
        for (String schema : TYPES.keySet()) {
            for (Path f : ContractFiles.examples(schema, "valid")) {
                JsonNode node = Json.mapper().readTree(f.toFile());
                Object ours = bind(TYPES.get(schema), node);
                assertNotNull(ours, () -> f + ": a valid example left to Jackson");
                assertEquals(jackson(TYPES.get(schema), node), ours, f.toString());
                assertEquals(ours, Json.convert(node, TYPES.get(schema)), f.toString());
                bound++;
            }
        }
        assertTrue(bound >= TYPES.size(), "only " + bound + " valid examples");
    }

    @Test
    void neverBindsAMutatedExampleOtherwiseThanJackson() throws IOException {
        Random random = new Random(20261125);
        int bound = 0;
        int left = 0;
        for (String schema : TYPES.keySet()) {
            Class<?> type = TYPES.get(schema);
            for (String kind : List.of("valid", "invalid")) {
                for (Path f : ContractFiles.examples(schema, kind)) {
                    JsonNode example = Json.mapper().readTree(f.toFile());
                    for (int i = 0; i < MUTANTS_PER_EXAMPLE; i++) {
                        JsonNode mutant = JsonMutations.mutant(example, random);
                        Object ours = bind(type, mutant);
                        if (ours == null) {
                            left++;
                        } else {
                            bound++;
                            assertEquals(
                                    jackson(type, mutant), ours, () -> f + " mutated to " + mutant);
                        }
                    }
                }
            }
        }
        // most mutants stay plainly typed and are bound here; enough are not to exercise the way
        // back
        JsonMutations.assertSplit("record binder", bound, "bound", 10_000, left, "Jackson", 1_000);
    }

    @Test
    void leavesWhatItIsNotSureOfToJacksonAndItsErrors() throws IOException {
        String base =
                "{\"schema\":\"rtt_sample\",\"version\":2,\"src\":\"a\",\"dst\":\"b\",\"probe_id\":\"p\","
                        + "\"ts\":1700000000000,\"sent\":10,\"received\":10,\"loss_percent\":0";
        // plainly typed, with an unknown field and an integer for a Double: bound here
        RttSample sure =
                (RttSample)
                        bind(
                                RttSample.class,
                                Json.mapper()
                                        .readTree(base + ",\"rtt_min_ms\":151,\"extra\":[1]}"));
        assertEquals(151.0, sure.rttMinMs());
        assertNull(sure.duplicates());
        for (String doubt :
                List.of(
                        ",\"sent\":\"10\"}", // a number as a string: Jackson coerces it
                        ",\"duplicates\":1.5}", // a float for an integer: Jackson truncates it
                        ",\"packet_size\":3000000000}", // beyond an Integer: Jackson refuses it
                        ",\"sent\":null}")) { // null for a primitive: Jackson refuses it
            assertNull(bind(RttSample.class, Json.mapper().readTree(base + doubt)), doubt);
        }
        // a float beyond a double is parsed to infinity (not a BigDecimal) and bound as Jackson
        // does
        JsonNode huge = Json.mapper().readTree(base + ",\"rtt_min_ms\":1e400}");
        assertEquals(
                Double.POSITIVE_INFINITY, ((RttSample) bind(RttSample.class, huge)).rttMinMs());
        assertEquals(jackson(RttSample.class, huge), bind(RttSample.class, huge));
        JsonNode noTs = Json.mapper().readTree("{\"schema\":\"rtt_sample\",\"sent\":1}");
        assertNull(bind(RttSample.class, noTs), "an absent primitive is Jackson's to refuse");
        assertThrows(IllegalArgumentException.class, () -> Json.convert(noTs, RttSample.class));
        assertNull(bind(RttSample.class, Json.mapper().readTree("[]")));

        JsonNode refused = Json.mapper().readTree(base + ",\"sent\":null}");
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> Json.convert(refused, RttSample.class));
        assertTrue(e.getMessage().startsWith("cannot read RttSample"), e.getMessage());
    }

    @Test
    void takesItsNamesFromTheMappersNamingAndJsonProperty() throws IOException {
        HostSnapshot h =
                (HostSnapshot)
                        bind(
                                HostSnapshot.class,
                                Json.mapper()
                                        .readTree(
                                                "{\"schema\":\"host_snapshot\",\"version\":1,\"src\":\"a\",\"ts\":1,\"rmem_max\":2,\"wmem_max\":3,"
                                                        + "\"interface\":\"eth0\",\"tcp_rmem\":[4096,131072,6291456],\"iface\":\"not this\"}"));
        assertEquals("eth0", h.iface());
        assertEquals(List.of(4096L, 131072L, 6291456L), h.tcpRmem());
        RunError err =
                (RunError)
                        bind(
                                RunError.class,
                                Json.mapper()
                                        .readTree("{\"class\":\"timeout\",\"message\":\"m\"}"));
        assertEquals(new RunError("timeout", "m"), err);
    }

    record Aliased(@JsonAlias("b") String a) {}

    record WithMap(Map<String, String> m) {}

    @Test
    void bindsNoTypeWithAnnotationsOrComponentsItDoesNotKnow() {
        var naming = Json.mapper().getDeserializationConfig().getPropertyNamingStrategy();
        assertTrue(RecordBinder.of(Aliased.class, naming).isEmpty());
        assertTrue(RecordBinder.of(WithMap.class, naming).isEmpty());
        assertTrue(RecordBinder.of(String.class, naming).isEmpty());
        assertTrue(RecordBinder.of(ThroughputSample.class, null).isEmpty());
    }
}
