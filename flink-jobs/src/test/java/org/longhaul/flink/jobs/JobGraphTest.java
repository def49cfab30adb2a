package org.longhaul.flink.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.junit.jupiter.api.Test;

/** The production job's arguments and Kafka connectors (its uids: {@link OperatorUidsTest}). */
class JobGraphTest {

    /**
     * The least a secured job needs: its user and the path of its password file (read only by the
     * clients).
     */
    private static final String[] SECURED = {
        "--kafka-user", "flink", "--kafka-password-file", "/run/secrets/kafka-flink.password"
    };

    private static JobArgs parse(String... more) {
        String[] argv = java.util.Arrays.copyOf(SECURED, SECURED.length + more.length);
        System.arraycopy(more, 0, argv, SECURED.length, more.length);
        return JobArgs.parse(argv);
    }

    @Test
    void defaultsFollowTheContractAndTheBrief() {
        JobArgs args = parse();
        assertEquals("127.0.0.1:9092", args.kafka().bootstrapServers());
        assertEquals(KafkaSecurity.Mode.SASL_SSL, args.kafka().security().mode());
        assertEquals("longhaul.raw.throughput", args.kafka().throughputTopic());
        assertEquals("longhaul.stats", args.kafka().statsTopic());
        assertEquals("longhaul.events", args.kafka().eventsTopic());
        assertEquals("longhaul.deadletter", args.kafka().deadLetterTopic());
        assertEquals(Duration.ofSeconds(30), args.checkpointInterval());
    }

    @Test
    void argumentsAreParsedAndMistakesNamed() {
        JobArgs args =
                parse(
                        "--checkpoint-interval",
                        "10s",
                        "--out-of-orderness",
                        "3min",
                        "--stall.min-seconds",
                        "20");
        assertEquals(Duration.ofSeconds(10), args.checkpointInterval());
        assertEquals(Duration.ofMinutes(3), args.pipeline().outOfOrderness());
        assertEquals(20.0, args.pipeline().detectors().stall().minSeconds());
        var unknown =
                assertThrows(
                        IllegalArgumentException.class, () -> parse("--chekpoint-interval", "1s"));
        assertTrue(unknown.getMessage().contains("--chekpoint-interval"), unknown.getMessage());
        var bad = assertThrows(IllegalArgumentException.class, () -> parse("--idleness", "soon"));
        assertTrue(bad.getMessage().contains("--idleness"), bad.getMessage());
    }

    @Test
    void statisticsWindowsAreStaggeredOverAMinuteUnlessAskedOtherwise() {
        assertEquals(Duration.ofMinutes(1), parse().pipeline().statsStagger().spread());
        assertEquals(
                0,
                parse("--stats-stagger", "0s").pipeline().statsStagger().offsetMs("cern|lyon|tcp"));
        var tooFar =
                assertThrows(
                        IllegalArgumentException.class, () -> parse("--stats-stagger", "2min"));
        assertTrue(tooFar.getMessage().contains("--stats-stagger"), tooFar.getMessage());
    }

    @Test
    void everySourceAndSinkOfTheJobGetsTheSameSecurityProperties() throws Exception {
        KafkaOptions o = parse("--kafka-ca", "/run/secrets/ca.crt").kafka();
        Properties security = o.security().clientProperties();
        Sources sources = KafkaConnectors.sources(o);
        Sinks sinks = KafkaConnectors.sinks(o);
        List<Properties> all = new ArrayList<>();
        for (Object source :
                List.of(sources.throughput(), sources.path(), sources.rtt(), sources.host())) {
            all.add(field(KafkaSource.class, source, "props"));
        }
        for (Object sink : List.of(sinks.stats(), sinks.events(), sinks.deadLetters())) {
            all.add(field(KafkaSink.class, sink, "kafkaProducerConfig"));
        }
        for (Properties p : all) {
            for (String key : security.stringPropertyNames()) {
                assertEquals(security.getProperty(key), p.getProperty(key), key);
            }
        }
    }

    /** The connector keeps its client properties private; reading them is the only way to check. */
    private static Properties field(Class<?> type, Object o, String name) throws Exception {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return (Properties) f.get(o);
    }
}
