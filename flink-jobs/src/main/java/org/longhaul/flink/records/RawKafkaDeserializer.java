package org.longhaul.flink.records;

import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;

/**
 * Turns every Kafka record into a {@link RawMessage}, whatever its bytes: validation happens
 * downstream so a bad message becomes a dead letter instead of failing the source. The value's
 * bytes are kept as they are: parsing them directly is cheaper than decoding a String first. The
 * record's two clocks come along: the broker's append time (only on a LogAppendTime topic: a
 * CreateTime timestamp is the producer's clock, which is what is being judged) and the agent's send
 * time from header {@value ContractNames#HEADER_SENT_MS}; and whether it is a backfilled sample:
 * one read from the history topic, which only the importer may write. No header can say so: an
 * agent could set it, and its samples would skip the clock check and train the baselines.
 */
public final class RawKafkaDeserializer implements KafkaRecordDeserializationSchema<RawMessage> {
    private static final long serialVersionUID = 1L;

    private final String historyTopic;

    /** Marks as history what it reads from historyTopic (null: nothing). */
    public RawKafkaDeserializer(String historyTopic) {
        this.historyTopic = historyTopic;
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawMessage> out) {
        out.collect(
                RawMessage.of(record.topic(), record.partition(), record.offset(), record.value())
                        .withClocks(
                                brokerMs(record),
                                sentMs(record.headers().lastHeader(ContractNames.HEADER_SENT_MS)))
                        .withHistory(record.topic().equals(historyTopic)));
    }

    /** The broker's append time of the record, or null when the topic keeps the producer's time. */
    static Long brokerMs(ConsumerRecord<?, ?> record) {
        return record.timestampType() == TimestampType.LOG_APPEND_TIME && record.timestamp() >= 0
                ? record.timestamp()
                : null;
    }

    /**
     * The send time a sent_ms header carries (ASCII decimal milliseconds), or null when absent or
     * not a number.
     */
    static Long sentMs(Header header) {
        if (header == null || header.value() == null) {
            return null;
        }
        try {
            long ms = Long.parseLong(new String(header.value(), StandardCharsets.US_ASCII).trim());
            return ms > 0 ? ms : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public TypeInformation<RawMessage> getProducedType() {
        return TypeInformation.of(RawMessage.class);
    }
}
