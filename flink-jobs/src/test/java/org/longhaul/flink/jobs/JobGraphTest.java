package org.longhaul.flink.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;

/** The production graph (Kafka sources and sinks) builds offline, and every operator has a stable uid. */
class JobGraphTest {

    @Test
    void everyOperatorOfTheKafkaJobHasAUniqueUid() {
        JobArgs args = JobArgs.parse(new String[] {"--kafka", "127.0.0.1:1"});
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        LinkMonitorPipeline.wire(env, KafkaConnectors.sources(args.kafka()), KafkaConnectors.sinks(args.kafka()),
                args.pipeline());
        Set<String> uids = new HashSet<>();
        for (StreamNode node : env.getStreamGraph().getStreamNodes()) {
            String uid = node.getTransformationUID();
            assertNotNull(uid, "no uid on " + node.getOperatorName());
            assertTrue(uids.add(uid), "duplicate uid " + uid);
        }
        assertTrue(uids.contains("source-raw-throughput"), uids.toString());
        assertTrue(uids.contains("stats-1m"), uids.toString());
    }

    @Test
    void defaultsFollowTheContractAndTheBrief() {
        JobArgs args = JobArgs.parse(new String[0]);
        assertEquals("127.0.0.1:9092", args.kafka().bootstrapServers());
        assertEquals("longhaul.raw.throughput", args.kafka().throughputTopic());
        assertEquals("longhaul.stats", args.kafka().statsTopic());
        assertEquals("longhaul.events", args.kafka().eventsTopic());
        assertEquals("longhaul.deadletter", args.kafka().deadLetterTopic());
        assertEquals(Duration.ofSeconds(5), args.checkpointInterval());
    }

    @Test
    void argumentsAreParsedAndMistakesNamed() {
        JobArgs args = JobArgs.parse(new String[] {"--checkpoint-interval", "10s", "--out-of-orderness", "3min",
                "--stall.min-seconds", "20"});
        assertEquals(Duration.ofSeconds(10), args.checkpointInterval());
        assertEquals(Duration.ofMinutes(3), args.pipeline().outOfOrderness());
        assertEquals(20.0, args.pipeline().detectors().stall().minSeconds());
        var unknown = assertThrows(IllegalArgumentException.class, () -> JobArgs.parse(new String[] {"--chekpoint-interval", "1s"}));
        assertTrue(unknown.getMessage().contains("--chekpoint-interval"), unknown.getMessage());
        var bad = assertThrows(IllegalArgumentException.class, () -> JobArgs.parse(new String[] {"--idleness", "soon"}));
        assertTrue(bad.getMessage().contains("--idleness"), bad.getMessage());
    }
}
