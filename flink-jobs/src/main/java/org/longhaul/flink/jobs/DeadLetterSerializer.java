package org.longhaul.flink.jobs;

import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.JsonKafkaSerializer;
import org.longhaul.flink.records.Writers;

/**
 * Writes a dead letter as {@link JsonKafkaSerializer} does, to the own dead-letter topic of the
 * identity whose own topic it was read from ({@link Writers#deadLetterTopicOf}: an agent's or a
 * bridge's, which {@code longhaul admin add-agent} and {@code add-bridge} make), so one identity's
 * flood of bad input is bounded by its own topic's retention.bytes and evicts no other's dead
 * letters; to the shared topic for a record of a shared topic, a late one (whose topic the
 * statistics no longer know), or while the identity's own dead-letter topic does not exist (made
 * before this release, and not added again yet): a producer would wait a minute for a topic that is
 * not there.
 */
final class DeadLetterSerializer implements KafkaRecordSerializationSchema<DeadLetter> {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final Properties client;
    private final long relistMs;
    private transient TopicsPresent present;

    /**
     * topic: the shared dead-letter topic; client: the job's Kafka client properties; relist: how
     * often a missing own dead-letter topic is looked for again while it is wanted.
     */
    DeadLetterSerializer(String topic, Properties client, Duration relist) {
        this.topic = topic;
        this.client = client;
        this.relistMs = relist.toMillis();
    }

    @Override
    public void open(
            SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) {
        present = new TopicsPresent(this::listTopics, System::currentTimeMillis, relistMs);
    }

    /** Every topic of the brokers, by an admin client made for the one listing (rarely needed). */
    private Set<String> listTopics() throws Exception {
        Properties p = new Properties();
        p.putAll(client);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "longhaul-deadletter-topics");
        try (Admin admin = Admin.create(p)) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS);
        }
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            DeadLetter d, KafkaSinkContext context, Long ignored) {
        return JsonKafkaSerializer.record(topicOf(d.sourceTopic(), present), d);
    }

    /** The topic of a dead letter read from sourceTopic, given which topics exist. */
    String topicOf(String sourceTopic, TopicsPresent present) {
        String own = Writers.deadLetterTopicOf(topic, sourceTopic);
        return own.equals(topic) || present.has(own) ? own : topic;
    }
}
