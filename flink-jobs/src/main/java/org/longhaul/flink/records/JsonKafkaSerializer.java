package org.longhaul.flink.records;

import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.util.function.SerializableFunction;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes a derived message as JSON to one topic, keyed "src|dst" like every Longhaul topic. The
 * event time stays in the message's {@code ts}; the Kafka timestamp is left to the producer (now),
 * so that replaying old samples does not hand the broker records its retention deletes at once.
 */
public final class JsonKafkaSerializer<T> implements KafkaRecordSerializationSchema<T> {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final SerializableFunction<T, String> key;

    public JsonKafkaSerializer(String topic, SerializableFunction<T, String> key) {
        this.topic = topic;
        this.key = key;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            T element, KafkaSinkContext context, Long ignored) {
        return new ProducerRecord<>(
                topic,
                null,
                null,
                key.apply(element).getBytes(StandardCharsets.UTF_8),
                Json.bytes(element));
    }
}
