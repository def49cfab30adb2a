package org.longhaul.flink.it;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Test topics on the real broker: create, grant, produce keyed "src|dst", consume read_committed,
 * delete (topics and grants). Every client of the test connects with the same properties: the
 * test's own identity (the admin user, which may do all of that).
 */
final class KafkaTopics implements AutoCloseable {
    private final Properties client;
    private final Admin admin;
    private final List<String> created = new ArrayList<>();
    private final List<AclBinding> granted = new ArrayList<>();

    /**
     * @param client bootstrap.servers and the security properties of the test's clients
     */
    KafkaTopics(Properties client) {
        this.client = client;
        this.admin = Admin.create(client);
    }

    private Properties props() {
        Properties p = new Properties();
        p.putAll(client);
        return p;
    }

    void create(String topic, int partitions) throws Exception {
        admin.createTopics(
                        List.of(
                                new NewTopic(topic, partitions, (short) 1)
                                        .configs(Map.of("retention.ms", "-1"))))
                .all()
                .get();
        created.add(topic);
    }

    /**
     * Lets principal write to (and describe) every topic starting with prefix, until close: the
     * job's own user may otherwise write only the contract's output topics.
     */
    void allowWrite(String principal, String prefix) throws Exception {
        ResourcePattern topics =
                new ResourcePattern(
                        org.apache.kafka.common.resource.ResourceType.TOPIC,
                        prefix,
                        PatternType.PREFIXED);
        List<AclBinding> acls = new ArrayList<>();
        for (AclOperation op : List.of(AclOperation.WRITE, AclOperation.DESCRIBE)) {
            acls.add(
                    new AclBinding(
                            topics,
                            new AccessControlEntry(
                                    "User:" + principal, "*", op, AclPermissionType.ALLOW)));
        }
        admin.createAcls(acls).all().get();
        granted.addAll(acls);
    }

    void produce(String topic, List<String[]> keyAndValue) {
        Properties p = props();
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (var producer =
                new KafkaProducer<String, String>(
                        p, new StringSerializer(), new StringSerializer())) {
            for (String[] kv : keyAndValue) {
                producer.send(new ProducerRecord<>(topic, kv[0], kv[1]));
            }
            producer.flush();
        }
    }

    KafkaConsumer<byte[], byte[]> committedReader(Collection<String> topics) {
        Properties p = props();
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "it-reader-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        var consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(topics);
        return consumer;
    }

    static List<String[]> poll(KafkaConsumer<byte[], byte[]> consumer) {
        List<String[]> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofSeconds(1))) {
            out.add(new String[] {r.topic(), new String(r.value(), StandardCharsets.UTF_8)});
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        if (!granted.isEmpty()) {
            admin.deleteAcls(granted.stream().map(AclBinding::toFilter).toList()).all().get();
        }
        if (!created.isEmpty()) {
            admin.deleteTopics(created).all().get();
        }
        admin.close();
    }
}
