package org.longhaul.flink.records;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Turns every Kafka record into a {@link RawMessage}, whatever its bytes: validation happens
 * downstream so a bad message becomes a dead letter instead of failing the source. The value's
 * bytes are kept as they are: parsing them directly is cheaper than decoding a String first.
 */
public final class RawKafkaDeserializer implements KafkaRecordDeserializationSchema<RawMessage> {
    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawMessage> out) {
        out.collect(RawMessage.of(record.topic(), record.partition(), record.offset(), record.value()));
    }

    @Override
    public TypeInformation<RawMessage> getProducedType() {
        return TypeInformation.of(RawMessage.class);
    }
}
