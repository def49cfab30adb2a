package org.longhaul.flink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.longhaul.flink.testing.ContractAssert.assertAllValid;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.testing.Samples;

/**
 * The shaded jar on the REAL native stack: uploaded to the standalone Flink cluster over REST, fed
 * through the real Kafka broker (fresh topics of this run), its exactly-once output read with
 * read_committed until a stall event, a dead letter and minute statistics arrive; then cancelled.
 * The job connects as the stack's job user (flink, TLS + SCRAM) with the arguments `longhaul job
 * submit` gives it, the test's clients as the tests' admin user. Runs only in the "integration"
 * profile (activated by LONGHAUL_KAFKA) and fails, never skips, when the stack is not there.
 */
class LinkMonitorJobIT {
    private static final String SRC = "perfsonar.ihep.ac.cn";
    private static final String DST = "ccxfert02.in2p3.fr";
    private static final long DEADLINE_MS = 240_000;
    private static final String ENTRY = "org.longhaul.flink.jobs.LinkMonitorJob";

    private static Path jar() {
        Path jar =
                Path.of(System.getProperty("longhaul.jar", "target/longhaul-flink-jobs-0.1.0.jar"));
        assertTrue(
                Files.isRegularFile(jar), "no jar at " + jar.toAbsolutePath() + ": run mvn verify");
        return jar;
    }

    /** A run's name: the job user's groups and transactional ids must start with longhaul-. */
    private static String runName() {
        return "longhaul-it-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void theJarOnTheClusterTurnsKafkaSamplesIntoCommittedEventsStatsAndDeadLetters()
            throws Exception {
        StackKafka kafka = StackKafka.fromEnv();
        FlinkRest flink = new FlinkRest(StackKafka.env("LONGHAUL_FLINK"));
        String run = runName();
        // raw topics under the contract's raw prefix, which the job user reads; outputs under the
        // run's own
        // prefix, which it may write only by this run's grant
        String raw = "longhaul.raw." + run + ".";
        String out = "longhaul." + run + ".";
        try (KafkaTopics topics = new KafkaTopics(kafka.testClients())) {
            for (String t : List.of("throughput", "path", "rtt", "host")) {
                topics.create(raw + t, 4);
            }
            topics.create(out + "stats", 4);
            topics.create(out + "events", 1);
            topics.create(out + "deadletter", 1);
            topics.create(out + "probe-requests", 1);
            if (kafka.scram()) {
                topics.allowWrite(StackKafka.JOB_USER, out);
            }
            produceSamples(topics, raw, System.currentTimeMillis());

            String jarId = flink.upload(jar());
            List<String> args =
                    new ArrayList<>(kafka.jobArgs(kafka.scram() ? kafka.jobPasswordFile() : null));
            args.addAll(
                    List.of(
                            "--group-id",
                            run,
                            "--job-name",
                            run,
                            "--transactional-id-prefix",
                            run,
                            "--starting-offsets",
                            "earliest",
                            "--parallelism",
                            "1",
                            "--topic-throughput",
                            raw + "throughput",
                            "--topic-path",
                            raw + "path",
                            "--topic-rtt",
                            raw + "rtt",
                            "--topic-host",
                            raw + "host",
                            "--topic-stats",
                            out + "stats",
                            "--topic-events",
                            out + "events",
                            "--topic-deadletter",
                            out + "deadletter",
                            "--topic-probe-requests",
                            out + "probe-requests",
                            "--checkpoint-interval",
                            "2s",
                            "--out-of-orderness",
                            "5s",
                            "--idleness",
                            "2s"));
            String jobId = flink.run(jarId, ENTRY, args);
            try {
                Output o = awaitOutput(flink, jobId, topics, out);
                JsonNode stall =
                        o.events.stream()
                                .filter(e -> e.get("kind").asText().equals("stall"))
                                .findFirst()
                                .orElseThrow();
                assertEquals(SRC, stall.get("src").asText());
                assertEquals(39.6e6, stall.get("evidence").get("peak_bps").asDouble());
                JsonNode dead = o.deadLetters.get(0);
                assertEquals(raw + "throughput", dead.get("source_topic").asText());
                assertTrue(dead.get("reason").asText().startsWith("not JSON"), dead.toString());
                assertFalse(o.stats.isEmpty());
                assertAllValid(Contract.EVENT, o.events);
                assertAllValid(Contract.LINK_STATS, o.stats);
                assertAllValid(Contract.DEAD_LETTER, o.deadLetters);
                if (kafka.scram()) {
                    String secret = Files.readString(Path.of(kafka.jobPasswordFile())).strip();
                    assertFalse(
                            flink.jobTexts(jobId).contains(secret),
                            "the job's password is in what Flink's REST API shows of the job");
                }
            } finally {
                flink.cancel(jobId);
                awaitState(flink, jobId, "CANCELED", 60_000);
                flink.deleteJar(jarId);
            }
        }
    }

    @Test
    void theJobWithAWrongPasswordIsRefusedByTheBrokerAndSaysSo() throws Exception {
        StackKafka kafka = StackKafka.fromEnv();
        assumeTrue(
                kafka.scram(),
                "LONGHAUL_KAFKA_SECURITY=" + kafka.mode() + ": no password to get wrong");
        FlinkRest flink = new FlinkRest(StackKafka.env("LONGHAUL_FLINK"));
        String run = runName();
        String wrong = "wrong-" + UUID.randomUUID();
        Path pw =
                Files.createTempFile(
                        Path.of("target").toAbsolutePath(), "kafka-flink-wrong", ".password");
        Files.writeString(pw, wrong);
        String jarId = flink.upload(jar());
        List<String> args = new ArrayList<>(kafka.jobArgs(pw.toString()));
        args.addAll(
                List.of(
                        "--group-id",
                        run,
                        "--job-name",
                        run,
                        "--transactional-id-prefix",
                        run,
                        "--parallelism",
                        "1"));
        String jobId = flink.run(jarId, ENTRY, args);
        try {
            long until = System.currentTimeMillis() + 60_000;
            String texts = flink.jobTexts(jobId);
            while (!texts.contains("SaslAuthenticationException")
                    && System.currentTimeMillis() < until) {
                Thread.sleep(1000);
                texts = flink.jobTexts(jobId);
            }
            assertTrue(
                    texts.contains(
                            "SaslAuthenticationException: Authentication failed during authentication due to "
                                    + "invalid credentials with SASL mechanism SCRAM-SHA-512"),
                    "job " + flink.state(jobId) + ": " + flink.rootException(jobId));
            assertFalse(texts.contains(wrong), "the password is in the job's exceptions or config");
        } finally {
            flink.cancel(jobId);
            awaitState(flink, jobId, "CANCELED", 60_000);
            flink.deleteJar(jarId);
            Files.deleteIfExists(pw);
        }
    }

    /**
     * Four minutes of pings, a stalled iperf2 run (seed 000), a host snapshot and a mangled
     * message.
     */
    private static void produceSamples(KafkaTopics topics, String raw, long now) {
        String key = SRC + "|" + DST;
        long base = now - 4 * 60_000;
        List<String[]> pings = new ArrayList<>();
        for (long ts = base; ts <= now; ts += 10_000) {
            pings.add(
                    new String[] {key, Samples.ping(SRC, DST, ts, 10, 10, 283.0, 0.4).toString()});
        }
        topics.produce(raw + "rtt", pings);
        List<String[]> throughput = new ArrayList<>();
        long start = base + 30_000;
        throughput.add(
                new String[] {key, Samples.summary(SRC, DST, "r-it", start, 2.5e6).toString()});
        double[] mbps = {39.6, 0, 0, 0, 0, 0, 0, 0, 0, 13.2, 0, 0, 0, 0};
        for (int i = 0; i < mbps.length; i++) {
            throughput.add(
                    new String[] {
                        key,
                        Samples.interval(SRC, DST, "r-it", start, i * 5, i * 5 + 5, mbps[i] * 1e6)
                                .toString()
                    });
        }
        throughput.add(new String[] {key, "{\"schema\":\"throughput_sample\",\"ts\":"});
        topics.produce(raw + "throughput", throughput);
        topics.produce(
                raw + "host",
                List.<String[]>of(
                        new String[] {
                            key, Samples.host(SRC, DST, start, 65536, 65536).toString()
                        }));
    }

    private record Output(List<JsonNode> events, List<JsonNode> stats, List<JsonNode> deadLetters) {
        boolean complete() {
            return events.stream().anyMatch(e -> e.get("kind").asText().equals("stall"))
                    && !deadLetters.isEmpty()
                    && stats.stream()
                            .anyMatch(
                                    s ->
                                            s.get("protocol").asText().equals("icmp")
                                                    && s.get("window").asText().equals("1m"));
        }
    }

    private static Output awaitOutput(
            FlinkRest flink, String jobId, KafkaTopics topics, String prefix) throws Exception {
        Output out = new Output(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        long until = System.currentTimeMillis() + DEADLINE_MS;
        try (var consumer =
                topics.committedReader(
                        List.of(prefix + "events", prefix + "stats", prefix + "deadletter"))) {
            while (!out.complete()) {
                if (System.currentTimeMillis() > until) {
                    fail(
                            "no complete output after "
                                    + DEADLINE_MS / 1000
                                    + " s; job "
                                    + flink.state(jobId)
                                    + ", got "
                                    + out.events.size()
                                    + " events, "
                                    + out.stats.size()
                                    + " stats, "
                                    + out.deadLetters.size()
                                    + " dead letters; exception: "
                                    + flink.rootException(jobId));
                }
                String state = flink.state(jobId);
                if (state.equals("FAILED")) {
                    fail("job failed: " + flink.rootException(jobId));
                }
                for (String[] r : KafkaTopics.poll(consumer)) {
                    JsonNode n = Json.mapper().readTree(r[1]);
                    (r[0].endsWith(".events")
                                    ? out.events
                                    : r[0].endsWith(".stats") ? out.stats : out.deadLetters)
                            .add(n);
                }
            }
        }
        return out;
    }

    private static void awaitState(FlinkRest flink, String jobId, String wanted, long timeoutMs)
            throws Exception {
        long until = System.currentTimeMillis() + timeoutMs;
        while (!flink.state(jobId).equals(wanted) && System.currentTimeMillis() < until) {
            Thread.sleep(500);
        }
    }
}
