package org.longhaul.flink.records;

import java.util.List;

/**
 * Names from the committed contract: ingest/schemas, and the topics of ingest/topics.yaml by their
 * role (generated into {@link ContractNames}).
 */
public final class Contract {
    private Contract() {}

    public static final String THROUGHPUT = "throughput_sample.v1";
    public static final String PATH = "path_sample.v1";
    public static final String RTT = "rtt_sample.v1";
    public static final String HOST = "host_snapshot.v1";
    public static final String LINK_STATS = "link_stats.v1";
    public static final String EVENT = "event.v1";
    public static final String DEAD_LETTER = "dead_letter.v1";

    public static final List<String> SCHEMAS = List.of(THROUGHPUT, PATH, RTT, HOST, LINK_STATS, EVENT, DEAD_LETTER);

    public static final String TOPIC_THROUGHPUT = ContractNames.TOPIC_RAW_THROUGHPUT;
    public static final String TOPIC_PATH = ContractNames.TOPIC_RAW_PATH;
    public static final String TOPIC_RTT = ContractNames.TOPIC_RAW_RTT;
    public static final String TOPIC_HOST = ContractNames.TOPIC_RAW_HOST;
    public static final String TOPIC_STATS = ContractNames.TOPIC_STATS;
    public static final String TOPIC_EVENTS = ContractNames.TOPIC_EVENTS;
    public static final String TOPIC_DEAD_LETTER = ContractNames.TOPIC_DEAD_LETTER;

    /** The versioned schema name ("throughput_sample.v1") of a message's {@code schema} field. */
    public static String versioned(String schemaField) {
        return schemaField + ".v1";
    }

    /** The raw topic a message of this schema is published to, or null for a non-raw schema. */
    public static String rawTopicOf(String schemaField) {
        if (schemaField == null) {
            return null;
        }
        return switch (schemaField) {
            case ThroughputSample.SCHEMA -> TOPIC_THROUGHPUT;
            case PathSample.SCHEMA -> TOPIC_PATH;
            case RttSample.SCHEMA -> TOPIC_RTT;
            case HostSnapshot.SCHEMA -> TOPIC_HOST;
            default -> null;
        };
    }
}
