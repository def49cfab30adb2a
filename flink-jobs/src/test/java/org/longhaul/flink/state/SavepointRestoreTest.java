package org.longhaul.flink.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.state.FixtureScript.ALERT;
import static org.longhaul.flink.state.FixtureScript.BASELINE;
import static org.longhaul.flink.state.FixtureScript.LOSS;
import static org.longhaul.flink.state.FixtureScript.ROUTE;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.longhaul.flink.functions.common.Fmt;
import org.longhaul.flink.functions.common.RobustStats;
import org.longhaul.flink.jobs.PipelineConfig;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.testing.Samples;

/**
 * The current job restores the savepoint of every release kept under src/test/resources/savepoints
 * (written by {@link SavepointFixtureWriter}) and carries on from its state: open alerts end with
 * their own episode ids, learnt baselines and reference paths judge new runs at once, timers armed
 * before the savepoint fire after it, windows keep counting. Every operator's state must be claimed
 * ({@code allowNonRestoredState} false), with the hashmap backend the stack runs and with RocksDB,
 * so switching backends keeps the state too. A failure here means the state of a release no longer
 * restores: see flink-jobs/src/main/java/org/longhaul/flink/state/README.md, "State and upgrades".
 */
class SavepointRestoreTest {
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    static Stream<Arguments> fixturesAndBackends() {
        List<Arguments> cases = new ArrayList<>();
        for (Fixture f : Fixture.all()) {
            cases.add(Arguments.of(f, "hashmap"));
            cases.add(Arguments.of(f, "rocksdb"));
        }
        return cases.stream();
    }

    @Test
    void aFixtureIsKeptForTheCurrentRelease() {
        assertFalse(
                Fixture.all().isEmpty(),
                "no savepoint fixture under src/test/resources/savepoints");
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("fixturesAndBackends")
    void theCurrentJobCarriesOnFromTheFixturesState(Fixture fixture, String backend)
            throws Exception {
        List<JsonNode> events;
        List<JsonNode> stats;
        try (LocalCluster cluster = LocalCluster.start(backend);
                ScriptedPipeline job = new ScriptedPipeline(FixtureScript.afterRestore(), false)) {
            job.graph()
                    .setSavepointRestoreSettings(
                            SavepointRestoreSettings.forPath(fixture.dir().toString(), false));
            cluster.awaitSuccess(cluster.submit(job.graph()), TIMEOUT);
            events = job.events();
            stats = job.stats();
        }

        JsonNode collapse = fixture.event("throughput_collapse", ALERT);
        JsonNode recovery = one(events, "throughput_recovery", ALERT);
        assertEquals(
                collapse.get("episode_id").asText(),
                recovery.get("episode_id").asText(),
                "the open alert ends");
        assertEquals(
                collapse.get("evidence").get("baseline_bps").asDouble(),
                recovery.get("evidence").get("baseline_bps").asDouble());

        double[] learnt =
                fixture.input("throughput_sample", BASELINE).stream()
                        .filter(n -> "summary".equals(n.get("record").asText()))
                        .mapToDouble(n -> n.get("bits_per_second").asDouble())
                        .toArray();
        JsonNode fresh = one(events, "throughput_collapse", BASELINE);
        assertEquals(
                learnt.length,
                fresh.get("evidence").get("history_runs").asInt(),
                "judged by the restored history");
        assertEquals(
                Fmt.round(RobustStats.median(learnt)),
                fresh.get("evidence").get("baseline_bps").asDouble());

        List<JsonNode> paths = fixture.input("path_sample", ROUTE);
        JsonNode route = one(events, "route_change", ROUTE);
        assertEquals(
                firstAddressPerHop(paths.get(paths.size() - 1)),
                strings(route.get("path_before")),
                "the reference path");
        assertEquals(FixtureScript.pathAfter(), strings(route.get("path_after")));

        JsonNode highLoss = fixture.event("high_loss", LOSS);
        assertEquals(
                highLoss.get("episode_id").asText(),
                one(events, "loss_recovery", LOSS).get("episode_id").asText());

        List<JsonNode> pings = fixture.input("rtt_sample", BASELINE);
        JsonNode silence = one(events, "no_data", BASELINE);
        assertEquals(
                "ping",
                silence.get("evidence").get("probe").asText(),
                "a timer armed before the savepoint fired");
        assertEquals(
                pings.get(pings.size() - 1).get("ts").asLong(),
                silence.get("evidence").get("last_seen_ts").asLong());

        long before = intervals(fixture.input(), ALERT);
        long after = intervals(lines(FixtureScript.afterRestore()), ALERT);
        // the 1d window kept the fixture's samples: in one window, or, from a release whose windows
        // were aligned (before --stats-stagger), the aligned day restored from the fixture and the
        // link's staggered day after it; nothing lost either way
        List<JsonNode> days = daysOfTcp(stats, ALERT);
        long stagger =
                PipelineConfig.defaults()
                        .statsStagger()
                        .offsetMs(Links.key(Samples.SRC, ALERT, "tcp"));
        assertTrue(days.size() == 1 || days.size() == 2, days.toString());
        for (JsonNode d : days) {
            long start = Math.floorMod(d.get("window_start").asLong(), 24 * Samples.HOUR);
            assertTrue(
                    start == 0 || start == stagger, "a day aligned or at the link's stagger: " + d);
        }
        assertEquals(
                before + after,
                days.stream().mapToLong(d -> d.get("samples").asLong()).sum(),
                days.toString());
    }

    /**
     * The control: the same input without the fixture raises none of it, so the events above came
     * from restored state.
     */
    @Test
    void withoutTheSavepointTheSameInputOnlyStartsLearning() throws Exception {
        List<JsonNode> events;
        List<JsonNode> stats;
        try (LocalCluster cluster = LocalCluster.start("hashmap");
                ScriptedPipeline job = new ScriptedPipeline(FixtureScript.afterRestore(), false)) {
            cluster.awaitSuccess(cluster.submit(job.graph()), TIMEOUT);
            events = job.events();
            stats = job.stats();
        }
        for (String kind :
                List.of(
                        "throughput_recovery",
                        "throughput_collapse",
                        "route_change",
                        "loss_recovery")) {
            assertTrue(
                    Fixture.select(events, e -> kind.equals(e.get("kind").asText())).isEmpty(),
                    kind + ": " + events);
        }
        assertTrue(
                Fixture.select(
                                events,
                                e ->
                                        BASELINE.equals(e.get("dst").asText())
                                                && "no_data".equals(e.get("kind").asText()))
                        .isEmpty());
        assertEquals(
                intervals(lines(FixtureScript.afterRestore()), ALERT),
                dayOfTcp(stats, ALERT).get("samples").asLong());
    }

    private static JsonNode one(List<JsonNode> events, String kind, String dst) {
        List<JsonNode> found =
                Fixture.select(
                        events,
                        e ->
                                kind.equals(e.get("kind").asText())
                                        && dst.equals(e.get("dst").asText()));
        assertEquals(1, found.size(), kind + " for " + dst + " among " + events);
        return found.get(0);
    }

    private static JsonNode dayOfTcp(List<JsonNode> stats, String dst) {
        List<JsonNode> days = daysOfTcp(stats, dst);
        assertEquals(1, days.size(), days.toString());
        return days.get(0);
    }

    private static List<JsonNode> daysOfTcp(List<JsonNode> stats, String dst) {
        return Fixture.select(
                stats,
                s ->
                        dst.equals(s.get("dst").asText())
                                && "tcp".equals(s.get("protocol").asText())
                                && "1d".equals(s.get("window").asText()));
    }

    private static long intervals(List<JsonNode> input, String dst) {
        return input.stream()
                .filter(
                        n ->
                                "throughput_sample".equals(n.get("schema").asText())
                                        && dst.equals(n.get("dst").asText())
                                        && "interval".equals(n.get("record").asText()))
                .count();
    }

    private static List<JsonNode> lines(List<String> lines) throws Exception {
        List<JsonNode> nodes = new ArrayList<>();
        for (String l : lines) {
            nodes.add(Json.mapper().readTree(l));
        }
        return nodes;
    }

    private static List<String> firstAddressPerHop(JsonNode path) {
        List<String> out = new ArrayList<>();
        path.get("hops").forEach(h -> out.add(h.get("probes").get(0).get("addr").asText()));
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
