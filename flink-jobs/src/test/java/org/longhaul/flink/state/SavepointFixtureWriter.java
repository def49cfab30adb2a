package org.longhaul.flink.state;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.longhaul.flink.records.EventKind;

/**
 * Writes the savepoint fixture of a release: runs the job's pipeline over {@link
 * FixtureScript#before()} on an embedded cluster (hashmap state backend, parallelism 1), waits
 * until the fixture's alerts are out, stops the job with a canonical savepoint and copies it to the
 * given directory with the input it was built from (input.jsonl), the events the job emitted
 * (events.jsonl) and where it came from (fixture.properties).
 *
 * <pre>
 * bash scripts/savepoint-fixture.sh            # → flink-jobs/src/test/resources/savepoints/&lt;version&gt;/
 * </pre>
 */
public final class SavepointFixtureWriter {
    private SavepointFixtureWriter() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: SavepointFixtureWriter OUTPUT_DIR RELEASE");
            System.exit(2);
        }
        Path out = Path.of(args[0]);
        write(out, args[1]);
        try (Stream<Path> files = Files.list(out)) {
            for (Path f : files.sorted().toList()) {
                System.out.printf("%8d  %s%n", Files.size(f), f);
            }
        }
        System.exit(0);
    }

    public static void write(Path out, String release) throws Exception {
        List<String> input = FixtureScript.before();
        try (LocalCluster cluster =
                        LocalCluster.start("hashmap", false, MemorySize.ofMebiBytes(64), 1);
                ScriptedPipeline job = new ScriptedPipeline(input, true)) {
            JobID id = cluster.submit(job.graph());
            awaitAlerts(job, Duration.ofMinutes(2));
            Thread.sleep(2_000); // periodic watermarks (200 ms) catch up with the last samples
            String savepoint = cluster.stopWithSavepoint(id, 2);
            replace(out, Path.of(URI.create(savepoint)));
            Files.write(out.resolve("input.jsonl"), input, StandardCharsets.UTF_8);
            Files.write(out.resolve("events.jsonl"), job.eventLines(), StandardCharsets.UTF_8);
            Files.writeString(
                    out.resolve("fixture.properties"),
                    String.join(
                            "\n",
                            "# written by SavepointFixtureWriter (scripts/savepoint-fixture.sh); see flink-jobs/src/main/java/org/longhaul/flink/state/README.md",
                            "release=" + release,
                            "flink=" + EnvironmentInformation.getVersion(),
                            "written=" + Instant.now(),
                            "state_backend=hashmap",
                            "format=canonical",
                            "parallelism=1",
                            ""),
                    StandardCharsets.UTF_8);
        }
    }

    private static void awaitAlerts(ScriptedPipeline job, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<JsonNode> events = job.events();
            if (has(events, EventKind.THROUGHPUT_COLLAPSE, FixtureScript.ALERT)
                    && has(events, EventKind.HIGH_LOSS, FixtureScript.LOSS)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the fixture's alerts did not come: " + job.events());
    }

    static boolean has(List<JsonNode> events, EventKind kind, String dst) {
        return events.stream()
                .anyMatch(
                        e ->
                                kind.wire().equals(e.get("kind").asText())
                                        && dst.equals(e.get("dst").asText()));
    }

    /**
     * Empties out and moves the savepoint's files into it (a canonical savepoint is relocatable).
     */
    private static void replace(Path out, Path savepoint) throws IOException {
        Files.createDirectories(out);
        try (Stream<Path> old = Files.list(out)) {
            for (Path f : old.toList()) {
                Files.delete(f);
            }
        }
        try (Stream<Path> files = Files.list(savepoint)) {
            for (Path f : files.toList()) {
                if (Files.isDirectory(f)) {
                    throw new IOException("unexpected directory in the savepoint: " + f);
                }
                Files.copy(f, out.resolve(f.getFileName()));
            }
        }
    }
}
