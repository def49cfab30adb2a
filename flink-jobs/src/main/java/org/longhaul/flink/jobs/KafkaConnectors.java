package org.longhaul.flink.jobs;

import java.time.Duration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.longhaul.flink.records.ContractNames;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.JsonKafkaSerializer;
import org.longhaul.flink.records.LinkStats;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.records.RawKafkaDeserializer;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.records.ValidatedKafkaSerializer;
import org.longhaul.flink.records.Writers;

/**
 * KafkaSource per raw topic and exactly-once KafkaSinks (transactional; consumers of the derived
 * topics must read with isolation.level=read_committed to see only committed output). Every source
 * and sink, hence every consumer, producer and admin client they make, gets the same security
 * properties ({@link KafkaSecurity#clientProperties()}).
 */
public final class KafkaConnectors {
    private KafkaConnectors() {}

    /**
     * One source a kind; the throughput source also reads the history topic, whose samples are
     * history because of the topic (only the importer may write it), never because of a header.
     */
    public static Sources sources(KafkaOptions o) {
        return new Sources(
                source(o, o.throughputTopic(), o.historyThroughputTopic()),
                source(o, o.pathTopic(), null),
                source(o, o.rttTopic(), null),
                source(o, o.latencyTopic(), null),
                source(o, o.hostTopic(), null),
                KafkaBridgeLists.of(o, ContractNames.TOPIC_BRIDGE_HOSTS));
    }

    public static Sinks sinks(KafkaOptions o) {
        return new Sinks(
                sink(o, "stats", new JsonKafkaSerializer<LinkStats>(o.statsTopic())),
                sink(o, "events", new JsonKafkaSerializer<Event>(o.eventsTopic())),
                sink(
                        o,
                        "deadletter",
                        new DeadLetterSerializer(
                                o.deadLetterTopic(), o.clientProperties(), o.topicRelist())),
                sink(o, "requests", new JsonKafkaSerializer<ProbeRequest>(o.probeRequestsTopic())),
                sink(o, "paths", new ValidatedKafkaSerializer(o.pathsTopic())));
    }

    /**
     * How often a source looks for new topics: an agent added later ({@code longhaul admin
     * add-agent}) is read from the start of its own topics within this.
     */
    static final String DISCOVERY_MS = "10000";

    /**
     * A fetch of a source waits for this many bytes, or {@link #FETCH_MAX_WAIT_MS}: at a fleet's
     * cadence most of its partitions are idle, and with Kafka's default of one byte the broker
     * answered a fetch for every few records the bridges wrote (docs/benchmarks.md, The fleet). A
     * busy source fills it at once.
     */
    static final String FETCH_MIN_BYTES = String.valueOf(256 << 10);

    /**
     * The longest a fetch waits for {@link #FETCH_MIN_BYTES}: what a sparse record may be late.
     * Kafka's default, so an idle source fetches as often as before.
     */
    static final String FETCH_MAX_WAIT_MS = "500";

    /**
     * How long listing a source's topics may keep failing (a broker hangs) before the job fails:
     * the partitions known meanwhile are read ({@link PatientSubscriber}).
     */
    static final Duration DISCOVERY_PATIENCE = Duration.ofMinutes(5);

    /**
     * A source of the raw topic, every agent's own topic of it ({@link Writers}) and, unless null,
     * the history topic of the same kind.
     */
    static KafkaSource<RawMessage> source(KafkaOptions o, String topic, String historyTopic) {
        return KafkaSource.<RawMessage>builder()
                .setProperties(o.security().clientProperties())
                .setBootstrapServers(o.bootstrapServers())
                .setGroupId(o.groupId())
                .setClientIdPrefix(o.groupId() + "-" + topic)
                .setKafkaSubscriber(
                        PatientSubscriber.of(
                                Writers.rawTopics(topic, historyTopic), DISCOVERY_PATIENCE))
                .setProperty("partition.discovery.interval.ms", DISCOVERY_MS)
                .setProperty("fetch.min.bytes", FETCH_MIN_BYTES)
                .setProperty("fetch.max.wait.ms", FETCH_MAX_WAIT_MS)
                .setStartingOffsets(startingOffsets(o.startingOffsets()))
                .setDeserializer(new RawKafkaDeserializer(historyTopic))
                .setProperty("isolation.level", "read_committed")
                .build();
    }

    /**
     * An exactly-once sink whose transactional ids are "prefix-name-subtask-checkpoint". name is
     * one lowercase word: `longhaul job abort-transactions` finds a job's open transactions by that
     * shape (kafkaadmin.JobTransactions), and no other job's.
     */
    static <T> KafkaSink<T> sink(
            KafkaOptions o, String name, KafkaRecordSerializationSchema<T> serializer) {
        if (!name.matches("[a-z]+")) {
            throw new IllegalArgumentException("a sink's name is one lowercase word: " + name);
        }
        return KafkaSink.<T>builder()
                .setKafkaProducerConfig(o.security().clientProperties())
                .setBootstrapServers(o.bootstrapServers())
                .setRecordSerializer(serializer)
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(o.transactionalIdPrefix() + "-" + name)
                .setProperty(
                        "transaction.timeout.ms", String.valueOf(o.transactionTimeout().toMillis()))
                .build();
    }

    @SuppressWarnings("deprecation")
    static OffsetsInitializer startingOffsets(String mode) {
        return switch (mode) {
            case "earliest" -> OffsetsInitializer.earliest();
            case "latest" -> OffsetsInitializer.latest();
            case "committed" -> OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
            default ->
                    throw new IllegalArgumentException(
                            "--starting-offsets: expected committed, earliest or latest, got "
                                    + mode);
        };
    }
}
