package org.longhaul.flink.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** The deserializer keeps the broker's append time and the agent's send time beside the bytes. */
class RawKafkaDeserializerTest {
    private static final long BROKER = 1_764_000_000_000L;
    private static final byte[] VALUE = "{\"ts\":1764000000000}".getBytes(StandardCharsets.UTF_8);

    private static RawMessage read(TimestampType type, String sent) {
        return read(type, sent, ContractNames.TOPIC_RAW_RTT, null);
    }

    private static RawMessage read(
            TimestampType type, String sent, String topic, String historyHeader) {
        RecordHeaders headers = new RecordHeaders();
        if (historyHeader != null) {
            headers.add(
                    new RecordHeader(
                            "longhaul-history", historyHeader.getBytes(StandardCharsets.US_ASCII)));
        }
        if (sent != null) {
            headers.add(
                    new RecordHeader(
                            ContractNames.HEADER_SENT_MS,
                            sent.getBytes(StandardCharsets.US_ASCII)));
        }
        var record =
                new ConsumerRecord<>(
                        topic,
                        2,
                        41L,
                        BROKER,
                        type,
                        VALUE.length,
                        VALUE.length,
                        (byte[]) null,
                        VALUE,
                        headers,
                        Optional.empty());
        List<RawMessage> out = new ArrayList<>();
        new RawKafkaDeserializer(ContractNames.TOPIC_HISTORY_THROUGHPUT)
                .deserialize(
                        record,
                        new Collector<>() {
                            @Override
                            public void collect(RawMessage m) {
                                out.add(m);
                            }

                            @Override
                            public void close() {}
                        });
        assertEquals(1, out.size());
        return out.get(0);
    }

    @Test
    void aLogAppendTimeRecordCarriesTheBrokersTimeAndTheSendTime() {
        RawMessage m = read(TimestampType.LOG_APPEND_TIME, "1764000003600");
        assertEquals(BROKER, m.brokerMs());
        assertEquals(1_764_000_003_600L, m.sentMs());
        assertEquals(1_764_000_000_000L, m.eventTs());
        assertEquals(ContractNames.TOPIC_RAW_RTT, m.sourceTopic());
        assertEquals(41L, m.offset());
    }

    /**
     * A CreateTime timestamp is the producer's clock, the one being judged: it is no broker time.
     */
    @Test
    void aCreateTimeRecordHasNoBrokerTime() {
        assertNull(read(TimestampType.CREATE_TIME, "1764000003600").brokerMs());
    }

    @Test
    void aMissingOrUnreadableHeaderIsNoSendTime() {
        assertNull(read(TimestampType.LOG_APPEND_TIME, null).sentMs());
        assertNull(read(TimestampType.LOG_APPEND_TIME, "yesterday").sentMs());
        assertNull(read(TimestampType.LOG_APPEND_TIME, "-5").sentMs());
    }

    /**
     * Only the history topic (the importer's alone) makes a sample history: the header the importer
     * once set, sent by an agent on a raw topic, is ignored.
     */
    @Test
    void onlyTheHistoryTopicMarksABackfilledSample() {
        String history = ContractNames.TOPIC_HISTORY_THROUGHPUT;
        String raw = ContractNames.TOPIC_RAW_THROUGHPUT;
        assertTrue(read(TimestampType.LOG_APPEND_TIME, null, history, null).history());
        assertFalse(read(TimestampType.LOG_APPEND_TIME, null, raw, "1").history());
        assertFalse(read(TimestampType.LOG_APPEND_TIME, "1764000003600", raw, null).history());
    }
}
