package org.longhaul.flink.records;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Names from the committed contract: ingest/schemas, and the topics of ingest/topics.yaml by their
 * role (generated into {@link ContractNames}).
 */
public final class Contract {
    private Contract() {}

    /**
     * The schema of each topic, by the version producers write ("throughput_sample.v2"): a topic's
     * consumers read that version and every earlier one ({@link #accepted}).
     */
    public static final String THROUGHPUT =
            versioned(ContractNames.SCHEMA_RAW_THROUGHPUT, ContractNames.VERSION_RAW_THROUGHPUT);

    public static final String PATH =
            versioned(ContractNames.SCHEMA_RAW_PATH, ContractNames.VERSION_RAW_PATH);
    public static final String RTT =
            versioned(ContractNames.SCHEMA_RAW_RTT, ContractNames.VERSION_RAW_RTT);
    public static final String LATENCY =
            versioned(ContractNames.SCHEMA_RAW_LATENCY, ContractNames.VERSION_RAW_LATENCY);
    public static final String HOST =
            versioned(ContractNames.SCHEMA_RAW_HOST, ContractNames.VERSION_RAW_HOST);
    public static final String LINK_STATS =
            versioned(ContractNames.SCHEMA_STATS, ContractNames.VERSION_STATS);
    public static final String EVENT =
            versioned(ContractNames.SCHEMA_EVENTS, ContractNames.VERSION_EVENTS);
    public static final String DEAD_LETTER =
            versioned(ContractNames.SCHEMA_DEAD_LETTER, ContractNames.VERSION_DEAD_LETTER);
    public static final String PROBE_REQUEST =
            versioned(ContractNames.SCHEMA_PROBE_REQUESTS, ContractNames.VERSION_PROBE_REQUESTS);

    /** The families of the bridges' own records, which the job does not validate as samples. */
    private static final Set<String> BRIDGES_OWN =
            Set.of(ContractNames.SCHEMA_PSBRIDGE_SEEN, ContractNames.SCHEMA_BRIDGE_HOSTS);

    /**
     * The newest version of every schema the job validates, in name order: every role's of
     * contract.yaml but the bridges' own records (what they share of the results they converted,
     * and the admin's host lists of the bridges, which {@link BridgeHostsRecord} reads).
     */
    public static final List<String> SCHEMAS =
            ContractNames.ROLE_SCHEMAS.values().stream()
                    .filter(s -> !BRIDGES_OWN.contains(familyOf(s)))
                    .distinct()
                    .sorted()
                    .toList();

    /** Every version of every schema, oldest first within each: what the registry compiles. */
    public static final List<String> ALL_VERSIONS =
            SCHEMAS.stream().flatMap(s -> accepted(s).stream()).toList();

    /** {@link #accepted} of each newest schema, oldest first: index {@code version - 1}. */
    private static final Map<String, List<String>> ACCEPTED =
            SCHEMAS.stream().collect(Collectors.toUnmodifiableMap(s -> s, Contract::accepted));

    public static final String TOPIC_THROUGHPUT = ContractNames.TOPIC_RAW_THROUGHPUT;
    public static final String TOPIC_HISTORY_THROUGHPUT = ContractNames.TOPIC_HISTORY_THROUGHPUT;
    public static final String TOPIC_PATH = ContractNames.TOPIC_RAW_PATH;
    public static final String TOPIC_PATHS = ContractNames.TOPIC_PATHS;
    public static final String TOPIC_RTT = ContractNames.TOPIC_RAW_RTT;
    public static final String TOPIC_LATENCY = ContractNames.TOPIC_RAW_LATENCY;
    public static final String TOPIC_HOST = ContractNames.TOPIC_RAW_HOST;
    public static final String TOPIC_STATS = ContractNames.TOPIC_STATS;
    public static final String TOPIC_EVENTS = ContractNames.TOPIC_EVENTS;
    public static final String TOPIC_DEAD_LETTER = ContractNames.TOPIC_DEAD_LETTER;
    public static final String TOPIC_PROBE_REQUESTS = ContractNames.TOPIC_PROBE_REQUESTS;

    /** "throughput_sample.v2" of ("throughput_sample", 2). */
    public static String versioned(String family, int version) {
        return family + ".v" + version;
    }

    /** "throughput_sample" of "throughput_sample.v2": the {@code schema} field of its messages. */
    public static String familyOf(String schema) {
        return schema.substring(0, schema.lastIndexOf(".v"));
    }

    /** The versions a topic whose schema is {@code schema} takes: "x.v1" … {@code schema}. */
    public static List<String> accepted(String schema) {
        String family = familyOf(schema);
        int newest = Integer.parseInt(schema.substring(family.length() + 2));
        return java.util.stream.IntStream.rangeClosed(1, newest)
                .mapToObj(v -> versioned(family, v))
                .toList();
    }

    /**
     * The schema a message of version {@code version} is checked against on a topic whose schema is
     * {@code schema}: that version's when the topic takes it, else the topic's own (whose version
     * constant then names the mismatch).
     */
    public static String schemaOf(String schema, int version) {
        List<String> takes =
                ACCEPTED.get(schema); // every message asks: no lists or names built for it
        if (takes == null) {
            takes = accepted(schema);
        }
        return version >= 1 && version <= takes.size() ? takes.get(version - 1) : schema;
    }

    /**
     * The raw topic a message of this schema is published to (the contract's raw.* role of its
     * schema), or null for a non-raw schema.
     */
    public static String rawTopicOf(String schemaField) {
        return schemaField == null ? null : ContractNames.RAW_TOPIC_OF_SCHEMA.get(schemaField);
    }
}
