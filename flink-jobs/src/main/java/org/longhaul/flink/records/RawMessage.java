package org.longhaul.flink.records;

import java.io.Serializable;

/**
 * A raw message as read, before validation: where it came from, its bytes as UTF-8 (invalid
 * bytes replaced) and the {@code ts} it claims, when it has a usable one (else null).
 */
public record RawMessage(String sourceTopic, Integer partition, Long offset, Long eventTs, String payload)
        implements Serializable {

    public static RawMessage of(String sourceTopic, Integer partition, Long offset, String payload) {
        return new RawMessage(sourceTopic, partition, offset, Json.peekTs(payload), payload);
    }
}
