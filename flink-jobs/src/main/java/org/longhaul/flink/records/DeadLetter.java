package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/** A message that did not validate, kept whole with the reason (dead_letter.v1). */
public record DeadLetter(
        @JsonUnwrapped Envelope envelope,
        String sourceTopic,
        Integer partition,
        Long offset,
        String rejectedBy,
        String reason,
        String payload)
        implements Enveloped {

    public static final String SCHEMA = ContractNames.SCHEMA_DEAD_LETTER;

    public static final String UNKNOWN = "unknown";

    /** A dead letter's envelope: about src → dst and probe probeId, written at ts. */
    public static Envelope envelope(String src, String dst, String probeId, long ts) {
        return new Envelope(SCHEMA, ContractNames.VERSION_DEAD_LETTER, src, dst, probeId, ts);
    }
}
