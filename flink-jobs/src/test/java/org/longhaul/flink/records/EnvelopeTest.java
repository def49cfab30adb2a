package org.longhaul.flink.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.testing.ContractRecords;

class EnvelopeTest {
    record Prefixed(@JsonUnwrapped(prefix = "e_") Envelope envelope, String runId) {}

    record Clashing(@JsonUnwrapped Envelope envelope, String src) {}

    @Test
    void aMessagesJsonStaysFlatBothWays() throws Exception {
        var letter =
                new DeadLetter(
                        DeadLetter.envelope("a", "b", "p", 7L), "t", 1, 2L, "v", "bad", "{}");
        JsonNode json = Json.mapper().readTree(Json.write(letter));
        assertEquals("a", json.get("src").textValue());
        assertEquals(7L, json.get("ts").longValue());
        assertTrue(json.get("envelope") == null, json.toString());
        assertEquals(letter, Json.convert(json, DeadLetter.class));
        assertEquals("a|b", letter.link());
        assertEquals("p", letter.probeId());
    }

    @Test
    void eachEnvelopedRecordIsBoundInOnePassAndSerializedByFlinkFieldByField() {
        var naming = Json.mapper().getDeserializationConfig().getPropertyNamingStrategy();
        var enveloped =
                ContractRecords.all().values().stream()
                        .distinct()
                        .filter(t -> t.isRecord() && Enveloped.class.isAssignableFrom(t))
                        .toList();
        assertTrue(enveloped.size() >= 6, enveloped.toString());
        for (Class<?> type : enveloped) {
            assertTrue(RecordBinder.of(type, naming).isPresent(), type.getName());
            assertInstanceOf(PojoTypeInfo.class, TypeInformation.of(type), type.getName());
        }
    }

    @Test
    void anUnwrappingJacksonDoesDifferentlyIsLeftToJackson() {
        var naming = Json.mapper().getDeserializationConfig().getPropertyNamingStrategy();
        assertTrue(RecordBinder.of(Prefixed.class, naming).isEmpty());
        assertTrue(RecordBinder.of(Clashing.class, naming).isEmpty());
    }
}
