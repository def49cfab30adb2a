package org.longhaul.flink.jobs;

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.JsonKafkaSerializer;
import org.longhaul.flink.records.LinkStats;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.records.RawKafkaDeserializer;
import org.longhaul.flink.records.RawMessage;

/**
 * KafkaSource per raw topic and exactly-once KafkaSinks (transactional; consumers of the derived
 * topics must read with isolation.level=read_committed to see only committed output). Every source
 * and sink, hence every consumer, producer and admin client they make, gets the same security
 * properties ({@link KafkaSecurity#clientProperties()}).
 */
public final class KafkaConnectors {
    private KafkaConnectors() {}

    public static Sources sources(KafkaOptions o) {
        return new Sources(
                source(o, o.throughputTopic()),
                source(o, o.pathTopic()),
                source(o, o.rttTopic()),
                source(o, o.latencyTopic()),
                source(o, o.hostTopic()));
    }

    public static Sinks sinks(KafkaOptions o) {
        return new Sinks(
                sink(
                        o,
                        "stats",
                        new JsonKafkaSerializer<LinkStats>(o.statsTopic(), LinkStats::link)),
                sink(o, "events", new JsonKafkaSerializer<Event>(o.eventsTopic(), Event::link)),
                sink(
                        o,
                        "deadletter",
                        new JsonKafkaSerializer<DeadLetter>(o.deadLetterTopic(), DeadLetter::link)),
                sink(
                        o,
                        "requests",
                        new JsonKafkaSerializer<ProbeRequest>(
                                o.probeRequestsTopic(), ProbeRequest::link)));
    }

    static KafkaSource<RawMessage> source(KafkaOptions o, String topic) {
        return KafkaSource.<RawMessage>builder()
                .setProperties(o.security().clientProperties())
                .setBootstrapServers(o.bootstrapServers())
                .setGroupId(o.groupId())
                .setClientIdPrefix(o.groupId() + "-" + topic)
                .setTopics(topic)
                .setStartingOffsets(startingOffsets(o.startingOffsets()))
                .setDeserializer(new RawKafkaDeserializer())
                .setProperty("isolation.level", "read_committed")
                .build();
    }

    static <T> KafkaSink<T> sink(KafkaOptions o, String name, JsonKafkaSerializer<T> serializer) {
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
