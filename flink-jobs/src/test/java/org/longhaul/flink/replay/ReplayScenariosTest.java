package org.longhaul.flink.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.ContractAssert.assertAllValid;
import static org.longhaul.flink.testing.Samples.HOUR;
import static org.longhaul.flink.testing.Samples.MINUTE;
import static org.longhaul.flink.testing.Samples.T0;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.testing.ReplayCli;
import org.longhaul.flink.testing.Scenario;

/**
 * Whole scenarios through the replay command, i.e. through exactly the job graph of the Kafka job
 * on an embedded MiniCluster: what an operator would see on stdout.
 */
class ReplayScenariosTest {
    private static final String IHEP = "perfsonar.ihep.ac.cn";
    private static final String LYON = "cclhcone01.in2p3.fr";
    private static final String SLAC = "slac-iepm";
    private static final String OXFORD = "rl-dev04";

    private static ReplayCli replay(Scenario s, String... args) {
        ReplayCli r = ReplayCli.run(s.lines(), args);
        assertEquals(0, r.exit(), r.stderr().toString());
        assertAllValid(Contract.EVENT, r.events());
        return r;
    }

    @Test
    void aCollapseAfterDaysOfNoisyBaselineIsFoundAtTheSecondRunOnceAndRecovers() {
        Scenario s = new Scenario(11);
        long t = T0;
        for (int i = 0; i < 30; i++, t += 4 * HOUR) {
            s.tcpRun(IHEP, LYON, t, 557, 0.3);
        }
        long firstLow = t;
        for (int i = 0; i < 4; i++, t += 4 * HOUR) {
            s.tcpRun(IHEP, LYON, t, 170, 0.05);
        }
        long firstBack = t;
        for (int i = 0; i < 6; i++, t += 4 * HOUR) {
            s.tcpRun(IHEP, LYON, t, 557, 0.1);
        }
        ReplayCli r = replay(s);

        List<JsonNode> collapse = r.events("throughput_collapse");
        assertEquals(1, collapse.size(), r.stdout().toString());
        assertEquals(
                firstLow + 4 * HOUR, collapse.get(0).get("ts").asLong(), "at the second low run");
        List<JsonNode> recovery = r.events("throughput_recovery");
        assertEquals(1, recovery.size());
        assertEquals(firstBack + 4 * HOUR, recovery.get(0).get("ts").asLong());
        assertEquals(collapse.get(0).get("episode_id"), recovery.get(0).get("episode_id"));
        assertEquals(2, r.events().size(), "nothing else: " + r.stdout());
    }

    @Test
    void oneWayLossOnOneDirectionRaisesHighLossNamingThatDirectionOnly() {
        Scenario s = new Scenario(34);
        long t = T0;
        for (int i = 0; i < 10; i++, t += MINUTE) {
            s.latency(IHEP, LYON, t, 0, 73.6);
            s.latency(LYON, IHEP, t + 1000, i >= 4 && i < 8 ? 30 : 0, 74.1);
        }
        ReplayCli r = replay(s, "--stats");

        List<JsonNode> loss = r.events("high_loss");
        assertEquals(1, loss.size(), r.stdout().toString());
        JsonNode e = loss.get(0);
        assertEquals(LYON, e.get("src").asText(), "the lossy direction: " + e);
        assertEquals(IHEP, e.get("dst").asText());
        assertEquals("owd", e.get("protocol").asText());
        assertTrue(
                e.get("message").asText().contains("one-way path from " + LYON + " to " + IHEP),
                e.toString());
        assertEquals(5.0, e.get("evidence").get("loss_percent").asDouble());
        List<JsonNode> back = r.events("loss_recovery");
        assertEquals(1, back.size(), r.stdout().toString());
        assertEquals(e.get("episode_id"), back.get(0).get("episode_id"));

        List<JsonNode> owd =
                r.json().stream()
                        .filter(n -> "link_stats".equals(n.path("schema").asText()))
                        .filter(n -> "owd".equals(n.path("protocol").asText()))
                        .filter(n -> "1m".equals(n.path("window").asText()))
                        .toList();
        assertTrue(owd.size() >= 16, "a 1m window per direction and minute: " + owd.size());
        for (JsonNode n : owd) {
            assertTrue(n.get("rtt_mean_ms").isNull() || !n.has("rtt_mean_ms"), n.toString());
            double mean = n.get("owd_mean_ms").asDouble();
            assertTrue(mean > 73 && mean < 75, n.toString());
        }
    }

    @Test
    void aSteadyNoisyLinkRaisesNothing() {
        Scenario s = new Scenario(12);
        List<List<String>> path =
                List.of(
                        List.of("202.122.32.1"),
                        Arrays.asList(null, null, null),
                        List.of("159.226.254.1", "159.226.254.5"),
                        List.of("193.48.99.78"));
        for (long t = T0; t < T0 + 7 * 24 * HOUR; t += 10 * MINUTE) {
            s.ping(IHEP, LYON, t, 283);
            if ((t - T0) % (30 * MINUTE) == 0) {
                s.trace(IHEP, LYON, t + 1000, 283, path);
            }
            if ((t - T0) % (2 * HOUR) == 0) {
                s.tcpRun(IHEP, LYON, t + 2000, 557, 0.3);
            }
        }
        ReplayCli r = replay(s);
        assertEquals(List.of(), r.events(), "a healthy link");
        assertTrue(r.deadLetters().isEmpty(), r.stderr().toString());
    }

    @Test
    void aStallInsideOneTestIsFound() {
        ReplayCli r =
                ReplayCli.run(
                        List.of(), "--input", "src/test/resources/scenarios/seed000-stall.jsonl");
        assertEquals(0, r.exit(), r.stderr().toString());
        List<JsonNode> stalls = r.events("stall");
        assertEquals(1, stalls.size(), r.stdout().toString());
        JsonNode e = stalls.get(0);
        assertEquals("ccxfert02.in2p3.fr", e.get("dst").asText());
        assertEquals(39.6e6, e.get("evidence").get("peak_bps").asDouble());
        assertEquals(10.0, e.get("evidence").get("stalled_s").asDouble());
        assertEquals(1, r.deadLetters().size(), "the mangled line, on stderr: " + r.deadLetters());
        assertTrue(r.stdout().stream().noneMatch(l -> l.contains("dead_letter")));
    }

    @Test
    void aRouteFlipIsOneEventWhileLoadBalancingAndBlinkingHopsAreNone() {
        Scenario s = new Scenario(13);
        List<String> stars = Arrays.asList(null, null, null);
        List<String> a = List.of("159.226.254.1", "159.226.254.1", "159.226.254.1");
        List<String> b = List.of("159.226.254.5", "159.226.254.5", "159.226.254.5");
        List<String> geant = List.of("62.40.112.9", "62.40.112.9", "62.40.112.9");
        List<String> dest = List.of("193.48.99.78");
        long t = T0;
        for (int i = 0; i < 40; i++, t += 10 * MINUTE) {
            List<String> hop2 = i % 2 == 0 ? stars : List.of("192.70.69.1");
            List<String> ecmp = i % 3 == 0 ? b : a;
            s.trace(
                    IHEP,
                    "ecmp-target.in2p3.fr",
                    t,
                    283,
                    List.of(List.of("202.122.32.1"), hop2, ecmp, dest));
            List<String> hop3 = i < 15 ? (i % 2 == 0 ? a : b) : geant;
            s.trace(
                    IHEP,
                    LYON,
                    t + 1,
                    i < 15 ? 283 : 181,
                    List.of(List.of("202.122.32.1"), hop2, hop3, dest));
        }
        ReplayCli r = replay(s);
        List<JsonNode> changes = r.events("route_change");
        assertEquals(1, changes.size(), r.stdout().toString());
        JsonNode e = changes.get(0);
        assertEquals(LYON, e.get("dst").asText());
        assertEquals(3, e.get("changed_hops").get(0).get("ttl").asInt());
        assertEquals("62.40.112.9", e.get("changed_hops").get(0).get("after").asText());
        assertEquals(181.0, e.get("evidence").get("rtt_after_ms").asDouble(), 1.0);
        assertEquals(
                T0 + 17 * 10 * MINUTE + 1,
                e.get("ts").asLong(),
                "at the third run on the new path");
    }

    @Test
    void a64KTcpWmemMaximumOver140msIsDiagnosedHostTuningLimited() {
        ReplayCli r =
                ReplayCli.run(
                        List.of(),
                        "--input",
                        "src/test/resources/scenarios/seed002-window-limited.jsonl",
                        "--stats");
        assertEquals(0, r.exit(), r.stderr().toString());
        List<JsonNode> diagnosis = r.events("diagnosis");
        assertEquals(1, diagnosis.size(), r.stdout().toString());
        JsonNode e = diagnosis.get(0);
        assertEquals("host_tuning_limited", e.get("cause").asText());
        assertEquals(65536, e.get("evidence").get("window_bytes").asLong());
        assertEquals(140.0, e.get("evidence").get("rtt_ms").asDouble());
        assertTrue(
                e.get("message").asText().contains("64 KiB / 140 ms = 3.74 Mbit/s"),
                e.get("message").asText());
        List<JsonNode> stats = new ArrayList<>(r.json());
        stats.removeIf(n -> !"link_stats".equals(n.path("schema").asText()));
        assertTrue(
                stats.stream()
                        .anyMatch(
                                n ->
                                        n.get("protocol").asText().equals("tcp")
                                                && n.get("window").asText().equals("1m")
                                                && n.get("samples").asInt() == 10),
                stats.toString());
    }
}
