package org.longhaul.flink.records;

import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes validated messages to one topic as they came, keyed by their link as {@link
 * JsonKafkaSerializer} keys every message.
 */
public final class ValidatedKafkaSerializer implements KafkaRecordSerializationSchema<Validated> {
    private static final long serialVersionUID = 1L;

    private final String topic;

    public ValidatedKafkaSerializer(String topic) {
        this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            Validated element, KafkaSinkContext context, Long ignored) {
        return JsonKafkaSerializer.record(topic, element.link(), element.payload());
    }
}
