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
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Test topics on the real broker: create, produce keyed "src|dst", consume read_committed, delete. */
final class KafkaTopics implements AutoCloseable {
    private final String bootstrap;
    private final Admin admin;
    private final List<String> created = new ArrayList<>();

    KafkaTopics(String bootstrap) {
        this.bootstrap = bootstrap;
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        this.admin = Admin.create(p);
    }

    void create(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)
                .configs(Map.of("retention.ms", "-1")))).all().get();
        created.add(topic);
    }

    void produce(String topic, List<String[]> keyAndValue) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (var producer = new KafkaProducer<String, String>(p, new StringSerializer(), new StringSerializer())) {
            for (String[] kv : keyAndValue) {
                producer.send(new ProducerRecord<>(topic, kv[0], kv[1]));
            }
            producer.flush();
        }
    }

    KafkaConsumer<byte[], byte[]> committedReader(Collection<String> topics) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "it-reader-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        var consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
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
        if (!created.isEmpty()) {
            admin.deleteTopics(created).all().get();
        }
        admin.close();
    }
}
