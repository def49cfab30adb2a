package org.longhaul.flink.records;

import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.util.function.SerializableFunction;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes a derived message as JSON to one topic, keyed "src|dst" like every Longhaul topic, with
 * the message's own event time as the Kafka timestamp.
 */
public final class JsonKafkaSerializer<T> implements KafkaRecordSerializationSchema<T> {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final SerializableFunction<T, String> key;
    private final SerializableFunction<T, Long> timestamp;

    public JsonKafkaSerializer(String topic, SerializableFunction<T, String> key,
                               SerializableFunction<T, Long> timestamp) {
        this.topic = topic;
        this.key = key;
        this.timestamp = timestamp;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(T element, KafkaSinkContext context, Long ignored) {
        return new ProducerRecord<>(topic, null, timestamp.apply(element),
                key.apply(element).getBytes(StandardCharsets.UTF_8), Json.bytes(element));
    }
}
