package org.longhaul.flink.records;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;

/**
 * A raw message that passed validation, as the agent wrote it: its link ("src|dst", the Kafka key
 * of every Longhaul topic) and its bytes, unchanged. The job forwards validated traces so
 * (longhaul.paths): Telegraf reads exactly what the agent sent, and nothing is written again.
 */
public record Validated(String link, byte[] payload) implements Serializable {
    @Override
    public boolean equals(Object o) {
        return o instanceof Validated v
                && Objects.equals(link, v.link)
                && Arrays.equals(payload, v.payload);
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hashCode(link) + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "Validated[" + link + ", " + payload.length + " bytes]";
    }
}
