package org.longhaul.flink.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.operators.AbstractUdfStreamOperator;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.SourceOperatorFactory;
import org.apache.flink.streaming.runtime.operators.sink.CommitterOperatorFactory;
import org.apache.flink.streaming.runtime.operators.sink.SinkWriterOperatorFactory;
import org.junit.jupiter.api.Test;

/**
 * Savepoints map state to operators by uid. The production graph (LinkMonitorJob with its Kafka
 * sources and sinks) must give every operator an explicit uid of ours, each once, and exactly the
 * committed list {@code operator-uids.txt}: renaming or dropping a uid orphans that operator's
 * state on restore, so it must be a conscious change of that file (and of the savepoint fixture,
 * see flink-jobs/src/main/java/org/longhaul/flink/state/README.md, "State and upgrades").
 */
class OperatorUidsTest {
    private static final String LIST = "/operator-uids.txt";

    @Test
    void theKafkaJobHasExactlyTheCommittedUidsEachOnceWithItsKindOfState() throws IOException {
        Map<String, String> actual = new TreeMap<>();
        for (StreamNode node : productionGraph().getStreamNodes()) {
            String uid = node.getTransformationUID();
            assertNotNull(uid, "no uid on " + node.getOperatorName());
            assertNull(
                    node.getUserHash(), "a uid hash instead of a uid on " + node.getOperatorName());
            assertNull(actual.put(uid, kind(node)), "uid used twice: " + uid);
            assertEquals(
                    LinkMonitorPipeline.MAX_PARALLELISM,
                    node.getMaxParallelism(),
                    "max parallelism of " + uid);
        }
        assertEquals(
                committed(),
                actual,
                "operator uids differ from "
                        + LIST
                        + ": a changed uid loses that operator's state on restore");
    }

    @Test
    void everyKeyedOperatorIsOneOfOursAndTheirNumberIsKnown() throws IOException {
        long keyed = committed().values().stream().filter("keyed"::equals).count();
        assertEquals(
                20,
                keyed,
                "the links' clocks, 3 stats windows, 8 detectors, the incident correlator and 7 confirmation functions (rtt and one-way delay shifts, tuning change, plan, host and mesh budgets, tracker)");
        long sources = committed().values().stream().filter("source"::equals).count();
        assertEquals(5, sources, "one per raw topic");
    }

    @Test
    void anOperatorWithoutUidIsRefusedWhenTheGraphIsBuilt() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        LinkMonitorJob.build(env, args());
        env.fromSequence(1, 2)
                .uid("extra-source")
                .map(x -> x)
                .sinkTo(new DiscardingSink<>())
                .uid("extra-sink");
        var e = assertThrows(IllegalStateException.class, () -> env.getStreamGraph(false));
        assertTrue(e.getMessage().contains("no UID"), e.getMessage());
    }

    /**
     * The links' clocks send their markers only for windows the watermark has not passed, which
     * holds because they run in the windows' own task, seeing the same watermark.
     */
    @Test
    void theLinksClocksAreChainedToTheirMinuteWindows() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        LinkMonitorJob.build(env, args("--stats-settle", "5s"));
        var names =
                java.util.stream.StreamSupport.stream(
                                env.getStreamGraph(false).getJobGraph().getVertices().spliterator(),
                                false)
                        .map(v -> v.getName())
                        .toList();
        assertTrue(
                names.stream()
                        .anyMatch(
                                n ->
                                        n.contains("stats: link clocks")
                                                && n.contains("stats: 1m windows")),
                names.toString());
        assertEquals(
                java.time.Duration.ofSeconds(5),
                args().pipeline().statsSettle(),
                "each link's clock by default");
        assertNull(args("--stats-settle", "off").pipeline().statsSettle(), "off: the watermark");
    }

    @Test
    void theLinkCapComesFromTheCommandLine() {
        assertEquals(1000, args().pipeline().linkCap().maxPerSrc(), "1,000 links a src by default");
        var cap =
                args("--max-links-per-src", "5", "--link-forget-after", "2d").pipeline().linkCap();
        assertEquals(5, cap.maxPerSrc());
        assertEquals(java.time.Duration.ofDays(2), cap.forgetAfter());
    }

    private static StreamGraph productionGraph() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        LinkMonitorJob.build(env, args());
        return env.getStreamGraph(false);
    }

    private static JobArgs args(String... more) {
        String[] base = {
            "--kafka",
            "127.0.0.1:1",
            "--kafka-user",
            "flink",
            "--kafka-password-file",
            "/run/secrets/kafka-flink.password"
        };
        String[] argv = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, argv, base.length, more.length);
        return JobArgs.parse(argv);
    }

    /**
     * What a savepoint holds for the operator: keyed state, source splits, operator state of a
     * checkpointed function, sink transactions, or nothing of ours.
     */
    private static String kind(StreamNode node) {
        if (node.getStateKeySerializer() != null) {
            return "keyed";
        }
        if (node.getOperatorFactory() instanceof SourceOperatorFactory) {
            return "source";
        }
        if (node.getOperatorFactory() instanceof SimpleOperatorFactory<?> f
                && f.getOperator() instanceof AbstractUdfStreamOperator<?, ?> op
                && op.getUserFunction() instanceof CheckpointedFunction) {
            return "operator";
        }
        if (node.getOperatorFactory() instanceof SinkWriterOperatorFactory
                || node.getOperatorFactory() instanceof CommitterOperatorFactory) {
            return "sink";
        }
        return "stateless";
    }

    private static Map<String, String> committed() throws IOException {
        Map<String, String> uids = new TreeMap<>();
        try (InputStream in = OperatorUidsTest.class.getResourceAsStream(LIST)) {
            assertNotNull(in, LIST);
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t");
                assertEquals(2, f.length, "uid<TAB>kind: " + line);
                assertNull(uids.put(f[0], f[1]), "listed twice: " + f[0]);
            }
        }
        return uids;
    }
}
