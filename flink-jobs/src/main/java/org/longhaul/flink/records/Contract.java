package org.longhaul.flink.records;

import java.util.List;

/** Names from the committed contract: ingest/topics.yaml and ingest/schemas. */
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

    public static final String TOPIC_THROUGHPUT = "longhaul.raw.throughput";
    public static final String TOPIC_PATH = "longhaul.raw.path";
    public static final String TOPIC_RTT = "longhaul.raw.rtt";
    public static final String TOPIC_HOST = "longhaul.raw.host";
    public static final String TOPIC_STATS = "longhaul.stats";
    public static final String TOPIC_EVENTS = "longhaul.events";
    public static final String TOPIC_DEAD_LETTER = "longhaul.deadletter";

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
