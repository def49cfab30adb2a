package org.longhaul.flink.records;

import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes a derived message as JSON to one topic, keyed "src|dst" like every Longhaul topic. The
 * event time stays in the message's {@code ts}; the Kafka timestamp is left to the producer (now),
 * so that replaying old samples does not hand the broker records its retention deletes at once.
 *
 * <p>The key is the message's own {@link OnLink#link()}, not a function the sink is given: Flink
 * ships a sink by Java serialization, and serializable method references {@code LinkStats::link}
 * and {@code DeadLetter::link} both name the one default method {@code OnLink.link}, which javac's
 * lambda deserialization cannot tell apart (the stats sink came back holding the dead letters'
 * cast, and failed on every statistic).
 */
public final class JsonKafkaSerializer<T extends OnLink>
        implements KafkaRecordSerializationSchema<T> {
    private static final long serialVersionUID = 1L;

    private final String topic;

    public JsonKafkaSerializer(String topic) {
        this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            T element, KafkaSinkContext context, Long ignored) {
        return record(topic, element);
    }

    /** The record of element on topic: keyed by its link, its JSON the value, no timestamp. */
    public static ProducerRecord<byte[], byte[]> record(String topic, OnLink element) {
        return record(topic, element.link(), Json.bytes(element));
    }

    /**
     * A record of topic keyed by link ("src|dst"), no partition and no timestamp (the producer's).
     */
    static ProducerRecord<byte[], byte[]> record(String topic, String link, byte[] value) {
        return new ProducerRecord<>(
                topic, null, null, link.getBytes(StandardCharsets.UTF_8), value);
    }
}
