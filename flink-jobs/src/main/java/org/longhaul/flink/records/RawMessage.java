package org.longhaul.flink.records;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A raw message as read, before validation: where it came from, its bytes as they were on the topic
 * and the {@code ts} it claims, when it has a usable one (else null). The bytes are parsed as they
 * are (no decoding to a String first); {@link #text()} decodes them, invalid UTF-8 replaced, only
 * for a dead letter.
 *
 * <p>Two clocks beside the sample's, to judge the agent's by (functions/ClockSkew): {@code
 * brokerMs}, the broker's append time of the record (a LogAppendTime topic's record timestamp), and
 * {@code sentMs}, the agent's clock when it produced the record (header sent_ms of the contract).
 * Each is null when unknown: a replay or a bounded source has no broker, an older agent or another
 * producer sets no header.
 *
 * <p>{@code history}: the record came from a history topic, which only the importer writes (a
 * sample {@code longhaul import} backfilled), so it has no place in event time ({@link
 * org.longhaul.flink.functions.History}).
 */
public record RawMessage(
        String sourceTopic,
        Integer partition,
        Long offset,
        Long eventTs,
        Long brokerMs,
        Long sentMs,
        boolean history,
        byte[] payload)
        implements Serializable {

    /** A message without the broker's or the sender's clock (replay, bounded sources, tests). */
    public static RawMessage of(
            String sourceTopic, Integer partition, Long offset, byte[] payload) {
        byte[] bytes = payload == null ? new byte[0] : payload;
        return new RawMessage(
                sourceTopic, partition, offset, Json.peekTs(bytes), null, null, false, bytes);
    }

    /**
     * This message with the broker's append time and the agent's send time (either may be null).
     */
    public RawMessage withClocks(Long brokerMs, Long sentMs) {
        return new RawMessage(
                sourceTopic, partition, offset, eventTs, brokerMs, sentMs, history, payload);
    }

    /** This message marked as history (or not): a backfilled sample. */
    public RawMessage withHistory(boolean history) {
        return new RawMessage(
                sourceTopic, partition, offset, eventTs, brokerMs, sentMs, history, payload);
    }

    public static RawMessage of(
            String sourceTopic, Integer partition, Long offset, String payload) {
        return of(
                sourceTopic,
                partition,
                offset,
                payload == null ? null : payload.getBytes(StandardCharsets.UTF_8));
    }

    /** The payload as text (UTF-8, invalid bytes replaced); empty when there is none. */
    public String text() {
        return payload == null ? "" : new String(payload, StandardCharsets.UTF_8);
    }

    /** True when the payload is empty or only whitespace. */
    public boolean blank() {
        if (payload == null) {
            return true;
        }
        for (byte b : payload) {
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RawMessage m
                && Objects.equals(sourceTopic, m.sourceTopic)
                && Objects.equals(partition, m.partition)
                && Objects.equals(offset, m.offset)
                && Objects.equals(eventTs, m.eventTs)
                && Objects.equals(brokerMs, m.brokerMs)
                && Objects.equals(sentMs, m.sentMs)
                && history == m.history
                && Arrays.equals(payload, m.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                sourceTopic,
                partition,
                offset,
                eventTs,
                brokerMs,
                sentMs,
                history,
                Arrays.hashCode(payload));
    }

    @Override
    public String toString() {
        return "RawMessage["
                + sourceTopic
                + "/"
                + partition
                + "@"
                + offset
                + ", ts="
                + eventTs
                + ", broker="
                + brokerMs
                + ", sent="
                + sentMs
                + (history ? ", history" : "")
                + ", "
                + text()
                + "]";
    }
}
