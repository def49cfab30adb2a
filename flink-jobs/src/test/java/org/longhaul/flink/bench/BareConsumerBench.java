package org.longhaul.flink.bench;

import com.fasterxml.jackson.databind.ObjectReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.longhaul.flink.functions.DropReplayed;
import org.longhaul.flink.functions.RecentFingerprints;
import org.longhaul.flink.jobs.KafkaSecurity;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RawKafkaDeserializer;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.validate.MessageValidator;
import org.longhaul.flink.validate.SchemaRegistry;

/**
 * The bare baseline of the Flink throughput benchmark (bench/flink_throughput.py): one plain Kafka
 * consumer, on the same connection as the job (TLS + SCRAM from LONGHAUL_KAFKA_*), reads the same
 * preloaded topics from their start and does only what every record costs before any of the job's
 * logic: the job's deserializer (RawMessage with its clocks) and a JSON parse of the body. Prints
 * one line, {"figure":"bare_consumer","samples_per_s":N,"records":N}, the rate timed from 10 % to
 * 90 % of the records, as the job's is; and as it passes each of those two marks, "mark N" (N:
 * records read so far), for the driver to read the machine's CPU counters then.
 *
 * <p>With {@code --validated}, the second anchor (figure "validated_reader"): what the job must do
 * to every record before any statistics, done by the job's own code in one thread: the dedupe of
 * replays ({@link DropReplayed}'s fingerprints) and the contract's check and typed binding ({@link
 * MessageValidator}, the one-pass reader with the tree behind it), each record checked against its
 * topic's schema (a path topic's, else a throughput topic's).
 *
 * <p>Usage: BareConsumerBench TOPIC[,TOPIC...] RECORDS [--validated]
 */
public final class BareConsumerBench {
    private BareConsumerBench() {}

    public static void main(String[] args) throws Exception {
        List<String> topics = List.of(args[0].split(","));
        long total = Long.parseLong(args[1]);
        boolean validated = args.length > 2 && args[2].equals("--validated");
        String figure = validated ? "validated_reader" : "bare_consumer";
        MessageValidator validator =
                new MessageValidator(SchemaRegistry.bundled(), "validated-reader-bench");
        RecentFingerprints recent = new RecentFingerprints(DropReplayed.DEFAULT_CAPACITY);
        Properties p = security().clientProperties();
        p.setProperty(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env("LONGHAUL_KAFKA", "127.0.0.1:9092"));
        p.setProperty(
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName());
        p.setProperty(
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName());
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        RawKafkaDeserializer deserializer = new RawKafkaDeserializer(null);
        ObjectReader tree = Json.mapper().reader();
        Sink sink = new Sink();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts = new ArrayList<>();
            for (String t : topics) {
                for (PartitionInfo info : c.partitionsFor(t, Duration.ofSeconds(30))) {
                    parts.add(new TopicPartition(t, info.partition()));
                }
            }
            c.assign(parts);
            c.seekToBeginning(parts);
            long n = 0;
            long t10 = 0;
            long n10 = 0;
            long t90 = 0;
            long n90 = 0;
            long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            while (n < total && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    deserializer.deserialize(r, sink);
                    if (!validated) {
                        sink.parsed += tree.readTree(sink.last.payload()).size();
                    } else if (recent.add(sink.last.sourceTopic(), sink.last.payload())) {
                        sink.parsed += validate(validator, sink.last) ? 1 : 0;
                    }
                    n++;
                    if (t10 == 0 && n >= total / 10) {
                        t10 = System.nanoTime();
                        n10 = n;
                        mark(n);
                    }
                    if (t90 == 0 && n >= total * 9 / 10) {
                        t90 = System.nanoTime();
                        n90 = n;
                        mark(n);
                    }
                }
            }
            if (t90 == 0) {
                throw new IllegalStateException(
                        "read " + n + " of " + total + " records within 10 min");
            }
            double rate = (n90 - n10) / ((t90 - t10) / 1e9);
            System.out.printf(
                    "{\"figure\":\"%s\",\"samples_per_s\":%d,\"records\":%d,\"%s\":%d}%n",
                    figure, Math.round(rate), n, validated ? "valid" : "fields", sink.parsed);
        }
    }

    /** The job's check of one record: a path topic's schema, else a throughput topic's. */
    private static boolean validate(MessageValidator v, RawMessage m) {
        long now = System.currentTimeMillis();
        if (m.sourceTopic().matches(".*\\.path(\\..*)?")) {
            return v.check(m, Contract.PATH, PathSample.class, now).valid();
        }
        return v.check(m, Contract.THROUGHPUT, ThroughputSample.class, now).valid();
    }

    private static void mark(long records) {
        System.out.println("mark " + records);
        System.out.flush();
    }

    private static KafkaSecurity security() {
        String mode = env("LONGHAUL_KAFKA_SECURITY", "sasl_ssl");
        if (mode.equals("plaintext")) {
            return KafkaSecurity.plaintext();
        }
        return new KafkaSecurity(
                KafkaSecurity.Mode.valueOf(mode.toUpperCase(java.util.Locale.ROOT)),
                System.getenv("LONGHAUL_KAFKA_CA"),
                System.getenv("LONGHAUL_KAFKA_USER"),
                System.getenv("LONGHAUL_KAFKA_PASSWORD_FILE"));
    }

    private static String env(String name, String dflt) {
        String v = System.getenv(name);
        return v == null || v.isEmpty() ? dflt : v;
    }

    /** Keeps the last message the deserializer gave (one per record). */
    private static final class Sink implements Collector<RawMessage> {
        RawMessage last;
        long parsed;

        @Override
        public void collect(RawMessage m) {
            last = m;
        }

        @Override
        public void close() {}
    }
}
