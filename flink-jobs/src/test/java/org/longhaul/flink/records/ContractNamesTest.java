package org.longhaul.flink.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.functions.detect.QualityParams;
import org.longhaul.flink.testing.ContractFiles;

/**
 * The generated EventKind and ContractNames say what ingest/contract.yaml and ingest/topics.yaml
 * say: a contract edited without `go generate ./ingest/...` fails here as well as in ingest/gen.
 */
class ContractNamesTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static JsonNode read(String file) throws IOException {
        return YAML.readTree(ContractFiles.ingestDir().resolve(file).toFile());
    }

    /** The values (null aside) of a property's enum in a schema of ingest/schemas, in order. */
    private static List<String> schemaEnum(String schema, String property) throws IOException {
        JsonNode root =
                new ObjectMapper()
                        .readTree(
                                ContractFiles.schemasDir()
                                        .resolve(schema + ".schema.json")
                                        .toFile());
        List<String> values = new ArrayList<>();
        for (JsonNode v : root.get("properties").get(property).get("enum")) {
            if (!v.isNull()) {
                values.add(v.asText());
            }
        }
        return values;
    }

    @Test
    void eventKindsAreTheContractsKindsInOrderWithTheirRolesAndRecoveries() throws IOException {
        List<String> want = new ArrayList<>();
        List<String> have = new ArrayList<>();
        for (JsonNode k : read("contract.yaml").get("event_kinds")) {
            want.add(
                    k.get("name").asText()
                            + " "
                            + k.get("role").asText()
                            + " "
                            + k.path("closes").asText(""));
        }
        for (EventKind k : EventKind.values()) {
            have.add(
                    k.wire()
                            + " "
                            + k.role().name().toLowerCase()
                            + " "
                            + (k.closes() == null ? "" : k.closes().wire()));
        }
        assertEquals(want, have);
    }

    /** DiagnosisCause is the cause enum of the event schema the job writes, in its order. */
    @Test
    void diagnosisCausesAreTheEventSchemasCauseEnum() throws IOException {
        assertEquals(
                schemaEnum(Contract.EVENT, "cause"),
                java.util.Arrays.stream(DiagnosisCause.values())
                        .map(DiagnosisCause::wire)
                        .toList());
    }

    /** SuspicionReason is probe_request's reason enum, in its order. */
    @Test
    void suspicionReasonsAreTheProbeRequestSchemasReasonEnum() throws IOException {
        assertEquals(
                schemaEnum(Contract.PROBE_REQUEST, "reason"),
                java.util.Arrays.stream(SuspicionReason.values())
                        .map(SuspicionReason::wire)
                        .toList());
    }

    /** The schema versions each role's producers write are those of contract.yaml's roles. */
    @Test
    void schemasByRoleAreTheContractsWithTheirVersions() throws IOException {
        Map<String, String> want = new LinkedHashMap<>();
        for (JsonNode r : read("contract.yaml").get("topic_roles")) {
            // the job validates every topic of a Longhaul schema but what the bridges share and the
            // admin's host lists of the bridges (BridgeHostsRecord reads those)
            if (r.get("schema").asText().contains(".v")
                    && !r.get("role").asText().equals("psbridge.seen")
                    && !r.get("role").asText().equals("bridge.hosts")) {
                want.put(r.get("role").asText(), r.get("schema").asText());
            }
        }
        assertEquals(new TreeSet<>(want.values()), new TreeSet<>(Contract.SCHEMAS));
        assertEquals(want.get("raw.throughput"), Contract.THROUGHPUT);
        assertEquals(want.get("history.path"), Contract.PATH);
        assertEquals(want.get("raw.latency"), Contract.LATENCY);
        assertEquals(want.get("stats"), Contract.LINK_STATS);
        assertEquals(want.get("probe_requests"), Contract.PROBE_REQUEST);
        assertEquals(
                List.of("throughput_sample.v1", "throughput_sample.v2"),
                Contract.accepted(Contract.THROUGHPUT));
        assertEquals("throughput_sample.v1", Contract.schemaOf(Contract.THROUGHPUT, 1));
        assertEquals(
                Contract.THROUGHPUT,
                Contract.schemaOf(Contract.THROUGHPUT, 3),
                "an unknown version is judged by the topic's");
        assertEquals(Contract.THROUGHPUT, Contract.schemaOf(Contract.THROUGHPUT, 2));
        assertEquals(
                Contract.THROUGHPUT,
                Contract.schemaOf(Contract.THROUGHPUT, 0),
                "a message naming no version");
        assertEquals(Contract.THROUGHPUT, Contract.schemaOf(Contract.THROUGHPUT, -1));
        // a topic schema that is not the newest is still answered, by its own versions
        assertEquals("throughput_sample.v1", Contract.schemaOf("throughput_sample.v1", 1));
        assertEquals("throughput_sample.v1", Contract.schemaOf("throughput_sample.v1", 2));
    }

    @Test
    void eachAlertIsClosedByTheRecoveryThatClosesIt() {
        for (EventKind k : EventKind.values()) {
            switch (k.role()) {
                case ALERT -> assertEquals(k, k.closedBy().closes(), k.wire());
                case RECOVERY -> assertEquals(k, k.closes().closedBy(), k.wire());
                case INFO -> {
                    assertNull(k.closes(), k.wire());
                    assertNull(k.closedBy(), k.wire());
                }
            }
            assertEquals(k, EventKind.ofWire(k.wire()));
        }
        assertNull(EventKind.ofWire("no_such_kind"));
    }

    @Test
    void topicsAreTheNamesOfTopicsYamlByTheRolesOfTheContract() throws IOException {
        Map<String, String> roleOfSchema = new HashMap<>();
        for (JsonNode r : read("contract.yaml").get("topic_roles")) {
            roleOfSchema.put(r.get("schema").asText(), r.get("role").asText());
        }
        Map<String, String> want = new LinkedHashMap<>();
        List<String> raw = new ArrayList<>();
        List<String> history = new ArrayList<>();
        for (JsonNode t : read("topics.yaml").get("topics")) {
            // a topic names its role when several carry its schema (a raw kind's and its history's)
            String role =
                    t.has("role")
                            ? t.get("role").asText()
                            : roleOfSchema.get(t.get("schema").asText());
            want.put(role, t.get("name").asText());
            if (role.startsWith("raw.")) {
                raw.add(t.get("name").asText());
            }
            if (role.startsWith("history.")) {
                history.add(t.get("name").asText());
            }
        }
        assertEquals(want, ContractNames.TOPICS);
        assertEquals(raw, ContractNames.RAW_TOPICS);
        assertEquals(history, ContractNames.HISTORY_TOPICS);
        assertEquals(want.get("raw.throughput"), Contract.TOPIC_THROUGHPUT);
        assertEquals(want.get("events"), Contract.TOPIC_EVENTS);
    }

    @Test
    void thresholdsAreTheContractsAndTheQualityDetectorDefaultsToIt() throws Exception {
        for (JsonNode t : read("contract.yaml").get("thresholds")) {
            String constant = t.get("name").asText().toUpperCase();
            assertEquals(
                    t.get("value").asDouble(),
                    ContractNames.class.getField(constant).getDouble(null),
                    constant);
        }
        assertEquals(ContractNames.LOSS_ALARM_PERCENT, QualityParams.defaults().lossPercent());
    }

    @Test
    void ownTopicsAreTheContracts() throws IOException {
        JsonNode own = read("contract.yaml").get("own_topics");
        assertEquals(
                own.get("principal_prefix").asText(), ContractNames.OWN_TOPIC_PRINCIPAL_PREFIX);
        assertEquals(own.get("separator").asText(), ContractNames.OWN_TOPIC_SEPARATOR);
        assertEquals(own.get("archiver_prefix").asText(), ContractNames.OWN_TOPIC_ARCHIVER_PREFIX);
        assertEquals(own.get("partitions").asInt(), ContractNames.OWN_TOPIC_PARTITIONS);
    }

    @Test
    void recordHeadersAreTheContracts() throws Exception {
        int n = 0;
        for (JsonNode h : read("contract.yaml").get("record_headers")) {
            String constant = "HEADER_" + h.get("name").asText().toUpperCase();
            assertEquals(
                    h.get("header").asText(),
                    ContractNames.class.getField(constant).get(null),
                    constant);
            n++;
        }
        assertTrue(n > 0, "the contract declares record headers");
    }
}
