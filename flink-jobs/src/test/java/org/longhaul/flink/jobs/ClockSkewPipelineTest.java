package org.longhaul.flink.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.HOUR;
import static org.longhaul.flink.testing.Samples.MINUTE;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.functions.stats.Stagger;
import org.longhaul.flink.records.ContractNames;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.replay.ReplayInput;
import org.longhaul.flink.testing.ReplayOutput;
import org.longhaul.flink.testing.Samples;

/**
 * One bad clock must not blind the mesh, on the whole graph: 90 minutes of a healthy link's pings
 * and, in the same partition, those of a host whose clock is an hour off, each message with the
 * broker's append time and the agent's send time as the Kafka source gives them.
 */
class ClockSkewPipelineTest {
    private static final String BAD = "skewed.example.org";
    private static final int MINUTES = 90;

    /** Windows on the minute, so each of the healthy link's minutes holds its three pings. */
    private static final PipelineConfig ALIGNED =
            PipelineConfig.defaults().withStatsStagger(Stagger.aligned());

    /**
     * A ping measured at true time t by a clock offset by skewMs, sent 100 ms later, appended by
     * the broker at once.
     */
    private static RawMessage ping(String src, long t, long skewMs, long offset) {
        long ts = t + skewMs;
        return RawMessage.of(
                        ContractNames.TOPIC_RAW_RTT,
                        0,
                        offset,
                        Samples.ping(src, DST, ts, 10, 10, 280.0, 0.5).toString())
                .withClocks(t + 100, ts + 100);
    }

    /** Both hosts ping every 20 s; the bad one's clock is off by skewMs. */
    private static ReplayInput mesh(long skewMs) {
        List<RawMessage> rtt = new ArrayList<>();
        for (int i = 0; i < MINUTES * 3; i++) {
            long t = T0 + i * 20_000L;
            rtt.add(ping(BAD, t, skewMs, rtt.size()));
            rtt.add(ping(SRC, t + 1_000, 0, rtt.size()));
        }
        return new ReplayInput(List.of(), List.of(), rtt, List.of(), List.of());
    }

    private static List<JsonNode> minutes(ReplayOutput out, String src) {
        return out.stats(
                s -> s.get("window").asText().equals("1m") && s.get("src").asText().equals(src));
    }

    private static PipelineConfig tolerance(String value) {
        return JobArgs.pipeline(new Args(new String[] {"--clock-skew-tolerance", value}));
    }

    @Test
    void aClockAnHourAheadIsDeadLetteredAndTheHealthyLinkKeepsEveryMinute() throws Exception {
        ReplayOutput out = ReplayOutput.of(mesh(HOUR), ALIGNED);

        assertEquals(MINUTES, minutes(out, SRC).size());
        assertTrue(
                minutes(out, SRC).stream().allMatch(s -> s.get("samples").asLong() == 3),
                minutes(out, SRC).toString());
        assertEquals(List.of(), minutes(out, BAD));
        assertEquals(MINUTES * 3, out.deadLetters().size());
        for (JsonNode d : out.deadLetters()) {
            assertEquals(BAD, d.get("src").asText());
            assertTrue(
                    d.get("reason")
                            .asText()
                            .startsWith(
                                    "clock_skew: the agent's clock is 3600.0 s ahead of the broker's"),
                    d.toString());
        }
        assertEquals(List.of(), out.events("no_data"));
    }

    @Test
    void aClockAnHourBehindIsDeadLetteredAndTheHealthyLinkKeepsEveryMinute() throws Exception {
        ReplayOutput out = ReplayOutput.of(mesh(-HOUR), ALIGNED);

        assertEquals(MINUTES, minutes(out, SRC).size());
        assertEquals(List.of(), minutes(out, BAD));
        assertEquals(MINUTES * 3, out.deadLetters().size());
        assertTrue(
                out.deadLetters()
                        .get(0)
                        .get("reason")
                        .asText()
                        .startsWith("clock_skew: the agent's clock is 3600.0 s behind"),
                out.deadLetters().get(0).toString());
    }

    @Test
    void theToleranceIsAJobArgumentDefaultingToTheContracts() {
        assertEquals(
                ContractNames.CLOCK_SKEW_TOLERANCE_S,
                PipelineConfig.defaults().clockSkewTolerance().toMillis() / 1000.0);
        assertEquals(5 * MINUTE, tolerance("5min").clockSkewTolerance().toMillis());
    }
}
