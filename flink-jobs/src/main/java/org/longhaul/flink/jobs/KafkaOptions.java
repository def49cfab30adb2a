package org.longhaul.flink.jobs;

import java.io.Serializable;
import java.time.Duration;
import java.util.Properties;

/**
 * Where the job reads and writes. Topic defaults are the contract's names (ingest/topics.yaml).
 *
 * @param startingOffsets committed (falls back to earliest), earliest or latest
 * @param transactionTimeout Kafka transaction timeout of the exactly-once sinks; must stay below
 *     the broker's transaction.max.timeout.ms (15 min by default)
 * @param topicRelist how often a missing own dead-letter topic of an identity is looked for again
 *     while its dead letters go to the shared one (an identity made before own dead letters, until
 *     `longhaul admin add-agent` or `add-bridge` makes it)
 * @param security TLS and credentials, the same for every source and sink
 */
public record KafkaOptions(
        String bootstrapServers,
        String groupId,
        String startingOffsets,
        String throughputTopic,
        String historyThroughputTopic,
        String pathTopic,
        String rttTopic,
        String latencyTopic,
        String hostTopic,
        String statsTopic,
        String eventsTopic,
        String deadLetterTopic,
        String probeRequestsTopic,
        String pathsTopic,
        String transactionalIdPrefix,
        Duration transactionTimeout,
        Duration topicRelist,
        KafkaSecurity security)
        implements Serializable {

    /**
     * The properties of a client of the job's brokers made outside a source or a sink (the bridges'
     * lists, the dead letters' topic listing): its security and its bootstrap servers.
     */
    public Properties clientProperties() {
        Properties p = security.clientProperties();
        p.setProperty("bootstrap.servers", bootstrapServers);
        return p;
    }
}
