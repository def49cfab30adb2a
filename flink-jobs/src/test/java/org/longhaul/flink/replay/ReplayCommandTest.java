package org.longhaul.flink.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.testing.ReplayCli;
import org.longhaul.flink.testing.Samples;

class ReplayCommandTest {

    @Test
    void anUnreadableInputExitsNonZeroWithAClearMessage() {
        ReplayCli r = ReplayCli.run(List.of(), "--input", "no/such/file.jsonl");
        assertEquals(2, r.exit());
        assertEquals(
                List.of("replay: cannot read input no/such/file.jsonl: no such file"), r.stderr());
        assertEquals(List.of(), r.stdout());
        assertEquals(2, ReplayCli.run(List.of(), "--input", "src").exit(), "a directory");
    }

    @Test
    void anUnknownArgumentIsNamed() {
        ReplayCli r = ReplayCli.run(List.of(), "--stat");
        assertEquals(2, r.exit());
        assertTrue(r.stderr().get(0).contains("--stat"), r.stderr().toString());
    }

    @Test
    void badLinesBecomeDeadLettersOnStderrAndTheRunGoesOn() {
        ReplayCli r =
                ReplayCli.run(
                        List.of(
                                "this is not json",
                                "{\"schema\":\"weather_sample\",\"version\":1}",
                                Samples.ping(Samples.SRC, Samples.DST, Samples.T0, 10, 10, 283, 0.4)
                                        .put("loss_percent", 101)
                                        .toString(),
                                Samples.ping(Samples.SRC, Samples.DST, Samples.T0, 10, 10, 283, 0.4)
                                        .toString()),
                        "--stats");
        assertEquals(0, r.exit(), r.stderr().toString());
        assertEquals(3, r.deadLetters().size(), r.stderr().toString());
        assertTrue(
                r.deadLetters().stream()
                        .anyMatch(d -> d.get("reason").asText().contains("$.loss_percent")));
        assertTrue(
                r.deadLetters().stream()
                        .anyMatch(d -> d.get("source_topic").asText().equals("replay:-")));
        assertEquals(3, r.json().size(), "icmp stats of 1m, 1h, 1d on stdout: " + r.stdout());
    }

    @Test
    void withoutStatsOnlyEventsArePrinted() {
        ReplayCli r =
                ReplayCli.run(
                        List.of(
                                Samples.ping(Samples.SRC, Samples.DST, Samples.T0, 10, 10, 283, 0.4)
                                        .toString()));
        assertEquals(0, r.exit());
        assertEquals(List.of(), r.stdout());
    }
}
