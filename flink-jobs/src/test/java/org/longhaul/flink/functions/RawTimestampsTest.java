package org.longhaul.flink.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.longhaul.flink.functions.ClockSkewTest.ping;
import static org.longhaul.flink.testing.Samples.HOUR;
import static org.longhaul.flink.testing.Samples.T0;

import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.RawMessage;

/**
 * A message's event time is its ts, unless nothing trustworthy is there to move the watermark with.
 */
class RawTimestampsTest {
    private static final long BROKER = T0 + 10 * HOUR;
    private final RawTimestamps assigner =
            new RawTimestamps(new ClockSkew(ClockSkew.contractTolerance()));

    @Test
    void aSampleOfACorrectClockKeepsItsTs() {
        assertEquals(
                BROKER - 3 * HOUR,
                assigner.extractTimestamp(ping(BROKER - 3 * HOUR, BROKER, BROKER), BROKER));
        assertEquals(
                BROKER + HOUR,
                assigner.extractTimestamp(ping(BROKER + HOUR, null, null), Long.MIN_VALUE),
                "a replay has no broker to judge by");
    }

    @Test
    void aSkewedSampleCannotMoveTheWatermarkEitherWay() {
        assertEquals(
                Long.MIN_VALUE,
                assigner.extractTimestamp(ping(BROKER + HOUR, BROKER + HOUR, BROKER), BROKER));
        assertEquals(
                Long.MIN_VALUE,
                assigner.extractTimestamp(ping(BROKER - HOUR, BROKER - HOUR, BROKER), BROKER));
        assertEquals(
                Long.MIN_VALUE,
                assigner.extractTimestamp(ping(BROKER + HOUR, null, BROKER), BROKER));
    }

    @Test
    void aMessageWithoutTsCannotEither() {
        assertEquals(
                Long.MIN_VALUE,
                assigner.extractTimestamp(RawMessage.of("t", 0, 1L, "not json"), BROKER));
    }

    /** A backfilled sample keeps its ts but takes no place in event time, however recent. */
    @Test
    void aBackfilledSampleHasNoEventTime() {
        RawMessage old = ping(BROKER - 30 * 24 * HOUR, BROKER, BROKER).withHistory(true);
        assertEquals(History.TIMESTAMP, assigner.extractTimestamp(old, BROKER));
        assertEquals(BROKER - 30 * 24 * HOUR, old.eventTs());
        assertEquals(
                History.TIMESTAMP,
                assigner.extractTimestamp(
                        ping(BROKER - HOUR, BROKER, BROKER).withHistory(true), BROKER));
    }
}
