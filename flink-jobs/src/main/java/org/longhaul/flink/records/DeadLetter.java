package org.longhaul.flink.records;

/** A message that did not validate, kept whole with the reason (dead_letter.v1). */
public record DeadLetter(
        String schema,
        int version,
        String src,
        String dst,
        String probeId,
        long ts,
        String sourceTopic,
        Integer partition,
        Long offset,
        String rejectedBy,
        String reason,
        String payload)
        implements OnLink {

    public static final String SCHEMA = ContractNames.SCHEMA_DEAD_LETTER;
    public static final String UNKNOWN = "unknown";
}
