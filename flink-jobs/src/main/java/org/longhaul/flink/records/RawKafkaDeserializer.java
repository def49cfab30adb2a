package org.longhaul.flink.records;

import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Turns every Kafka record into a {@link RawMessage}, whatever its bytes: validation happens
 * downstream so a bad message becomes a dead letter instead of failing the source.
 */
public final class RawKafkaDeserializer implements KafkaRecordDeserializationSchema<RawMessage> {
    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawMessage> out) {
        String payload = record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8);
        out.collect(RawMessage.of(record.topic(), record.partition(), record.offset(), payload));
    }

    @Override
    public TypeInformation<RawMessage> getProducedType() {
        return TypeInformation.of(RawMessage.class);
    }
}
