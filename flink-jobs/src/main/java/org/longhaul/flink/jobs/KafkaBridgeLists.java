package org.longhaul.flink.jobs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.longhaul.flink.functions.BridgeLists;
import org.longhaul.flink.records.BridgeHostsRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bridges' host lists as the bridge.hosts topic holds them (compacted, one partition, written
 * by the admin alone): {@link #open} reads the topic to its end before it returns, so no sample is
 * judged before the lists are known, then follows it on a thread of its own. One follower a
 * TaskManager, shared by every function that opened it and closed with the last.
 */
public record KafkaBridgeLists(Properties client, String topic) implements BridgeLists {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaBridgeLists.class);

    /** How long {@link #open} may take to read the lists to their end before the job fails. */
    static final Duration CATCH_UP = Duration.ofMinutes(1);

    private static final Map<String, Follower> FOLLOWERS = new HashMap<>();

    /** The lists of the job's Kafka (its security, its bootstrap servers). */
    public static KafkaBridgeLists of(KafkaOptions o, String topic) {
        return new KafkaBridgeLists(o.clientProperties(), topic);
    }

    @Override
    public Table open() {
        String id = client.getProperty("bootstrap.servers") + "/" + topic;
        synchronized (FOLLOWERS) {
            Follower f = FOLLOWERS.get(id);
            if (f == null || f.closed) {
                f = new Follower(client, topic, id);
                f.catchUp(CATCH_UP);
                f.start();
                FOLLOWERS.put(id, f);
            }
            f.users++;
            return f;
        }
    }

    /** Reads the topic, keeps each bridge's last list. */
    static final class Follower extends Thread implements Table {
        private final Map<String, Set<String>> lists = new ConcurrentHashMap<>();
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final String id;
        private int users; // guarded by FOLLOWERS
        private volatile boolean closed;

        Follower(Properties client, String topic, String id) {
            super("bridge-lists " + topic);
            setDaemon(true);
            this.id = id;
            Properties p = new Properties();
            p.putAll(client);
            p.setProperty("enable.auto.commit", "false");
            p.setProperty("client.id", "longhaul-bridge-lists");
            consumer =
                    new KafkaConsumer<>(
                            p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            List<TopicPartition> parts =
                    consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                            .map(i -> new TopicPartition(topic, i.partition()))
                            .toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
        }

        /** Reads until every partition's position reaches the end it had at the start. */
        void catchUp(Duration within) {
            long deadline = System.nanoTime() + within.toNanos();
            Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment(), within);
            while (ends.entrySet().stream()
                    .anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                if (System.nanoTime() > deadline) {
                    consumer.close();
                    throw new IllegalStateException(
                            "the bridges' host lists ("
                                    + id
                                    + ") were not read to their end within "
                                    + within);
                }
                poll();
            }
            LOG.info("bridges' host lists read: {} bridges ({})", lists.size(), id);
        }

        private void poll() {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofSeconds(1))) {
                apply(lists, r.key(), r.value());
            }
        }

        /** One record into the lists: a bridge's new list, or its removal. */
        static void apply(Map<String, Set<String>> lists, byte[] key, byte[] value) {
            String bridge = key == null ? null : new String(key, StandardCharsets.UTF_8);
            try {
                Set<String> hosts = BridgeHostsRecord.hosts(bridge, value);
                if (hosts == null) {
                    lists.remove(bridge);
                } else {
                    lists.put(bridge, hosts);
                }
            } catch (IOException e) {
                LOG.warn("bridge.hosts record of {} ignored: {}", bridge, e.getMessage());
            }
        }

        @Override
        public void run() {
            try {
                while (!closed) {
                    poll();
                }
            } catch (WakeupException e) {
                // closed
            } catch (RuntimeException e) {
                LOG.error("following the bridges' host lists ({}) stopped: {}", id, e.toString());
            } finally {
                consumer.close();
            }
        }

        @Override
        public Set<String> hostsOf(String principal) {
            return lists.get(principal);
        }

        @Override
        public void close() {
            synchronized (FOLLOWERS) {
                if (--users > 0) {
                    return;
                }
                closed = true;
                FOLLOWERS.remove(id);
            }
            consumer.wakeup();
        }
    }
}
