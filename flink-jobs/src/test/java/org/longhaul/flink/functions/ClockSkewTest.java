package org.longhaul.flink.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.HOUR;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.ContractNames;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.testing.Samples;

/** The clock-skew rule, each direction and each clock a message may carry. */
class ClockSkewTest {
    private static final long BROKER = T0 + 10 * HOUR;
    private final ClockSkew rule = new ClockSkew(ClockSkew.contractTolerance());

    /**
     * A ping measured at ts, sent at sentMs (null: no header), appended by the broker at brokerMs
     * (null: unknown).
     */
    static RawMessage ping(long ts, Long sentMs, Long brokerMs) {
        return RawMessage.of(
                        "longhaul.raw.rtt",
                        0,
                        1L,
                        Samples.ping(SRC, DST, ts, 10, 10, 280.0, 0.5).toString())
                .withClocks(brokerMs, sentMs);
    }

    @Test
    void theDefaultToleranceIsTheContracts() {
        assertEquals(
                Duration.ofMillis((long) (ContractNames.CLOCK_SKEW_TOLERANCE_S * 1000)),
                ClockSkew.contractTolerance());
    }

    @Test
    void anAgentClockAnHourAheadIsSkewedAndSaysSo() {
        ClockSkew.Skew s = rule.judge(ping(BROKER + HOUR - 5_000, BROKER + HOUR, BROKER));
        assertEquals(ClockSkew.Basis.SENT, s.basis());
        assertEquals(HOUR, s.aheadMs());
        assertEquals(
                "clock_skew: the agent's clock is 3600.0 s ahead of the broker's (tolerance 30 s)",
                s.reason());
    }

    @Test
    void anAgentClockAnHourBehindIsSkewedAndSaysSo() {
        ClockSkew.Skew s = rule.judge(ping(BROKER - HOUR - 5_000, BROKER - HOUR, BROKER));
        assertEquals(-HOUR, s.aheadMs());
        assertEquals(
                "clock_skew: the agent's clock is 3600.0 s behind the broker's (tolerance 30 s)",
                s.reason());
    }

    @Test
    void withinTheToleranceEitherWayIsNotSkew() {
        assertNull(rule.judge(ping(BROKER, BROKER + 30_000, BROKER)));
        assertNull(rule.judge(ping(BROKER - 40_000, BROKER - 30_000, BROKER)));
        assertTrue(rule.skewed(ping(BROKER, BROKER + 30_001, BROKER)));
        assertTrue(rule.skewed(ping(BROKER - 40_000, BROKER - 30_001, BROKER)));
    }

    /**
     * Spooled through a three-hour outage, sent once Kafka was back, by an agent whose clock is
     * right.
     */
    @Test
    void aSpooledSampleDeliveredHoursLateWithACorrectClockIsNotSkew() {
        long measured = BROKER - 3 * HOUR;
        assertNull(rule.judge(ping(measured, BROKER - 200, BROKER)));
        assertNull(
                rule.judge(ping(measured, null, BROKER)),
                "nor without the header: an old ts is no proof of a slow clock");
    }

    @Test
    void withoutTheHeaderOnlyATsAheadOfTheBrokerIsJudged() {
        ClockSkew.Skew s = rule.judge(ping(BROKER + HOUR, null, BROKER));
        assertEquals(ClockSkew.Basis.TS_NO_HEADER, s.basis());
        assertEquals(
                "clock_skew: the sample's ts is 3600.0 s ahead of the broker's clock (tolerance 30 s; no "
                        + ContractNames.HEADER_SENT_MS
                        + " header to tell the agent's clock)",
                s.reason());
        assertNull(rule.judge(ping(BROKER - HOUR, null, BROKER)));
    }

    /**
     * A ts after the sample reached the broker cannot be: whatever the send time says, it would
     * move the watermark.
     */
    @Test
    void aTsAheadOfTheBrokerIsSkewedEvenWhenTheSendTimeIsRight() {
        ClockSkew.Skew s = rule.judge(ping(BROKER + HOUR, BROKER, BROKER));
        assertEquals(ClockSkew.Basis.TS, s.basis());
        assertTrue(
                s.reason()
                        .startsWith(
                                "clock_skew: the sample's ts is 3600.0 s ahead of the broker's clock"),
                s.reason());
    }

    /** Replay and bounded sources have no broker time: no clock can be judged. */
    @Test
    void withoutBrokerTimeNothingIsJudged() {
        assertNull(rule.judge(ping(BROKER + HOUR, BROKER + HOUR, null)));
        assertFalse(rule.skewed(RawMessage.of("replay:x", null, 1L, "{}")));
    }

    @Test
    void aFractionalToleranceIsWrittenAsIs() {
        ClockSkew.Skew s =
                new ClockSkew(Duration.ofMillis(1500)).judge(ping(BROKER, BROKER + 2_000, BROKER));
        assertEquals(
                "clock_skew: the agent's clock is 2.0 s ahead of the broker's (tolerance 1.500 s)",
                s.reason());
        assertThrows(IllegalArgumentException.class, () -> new ClockSkew(Duration.ofSeconds(-1)));
    }
}
