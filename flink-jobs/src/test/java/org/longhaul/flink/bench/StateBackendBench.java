package org.longhaul.flink.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.core.execution.CheckpointType;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.checkpoint.TaskStateStats;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.longhaul.flink.functions.BridgeLists;
import org.longhaul.flink.functions.LinkCap;
import org.longhaul.flink.jobs.LinkMonitorPipeline;
import org.longhaul.flink.jobs.PipelineConfig;
import org.longhaul.flink.jobs.Sinks;
import org.longhaul.flink.jobs.Sources;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.LinkStats;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.records.Validated;
import org.longhaul.flink.state.LocalCluster;

/**
 * What a week of state costs on each state backend: the job's pipeline (LinkMonitorPipeline, the
 * production wiring) on an embedded cluster, parallelism 1, exactly-once checkpoints every 5 s as
 * the job runs, fed a week of {@link WeekOfProbes} for N links as fast as it goes. Then, state of a
 * week in place: a checkpoint (the configured kind), a full one, one with nothing new, one after a
 * minute more of event time; cancel, restore the last checkpoint (time until every task runs), stop
 * with a canonical savepoint and restore that. Prints each figure and one RESULT line per run.
 *
 * <pre>
 * bash bench/state_backends.sh [--links 1000,10000] [--backends hashmap,rocksdb] [--days 7] [--dense-hours 6] [--compression true] [--wait-minutes 30]
 * </pre>
 */
public final class StateBackendBench {
    /** How long any one step may take (--wait-minutes; 30 by default, more for 100k links). */
    private static Duration wait = Duration.ofMinutes(30);

    private StateBackendBench() {}

    record Options(
            List<Integer> links,
            List<String> backends,
            int days,
            int denseHours,
            long managedMb,
            long intervalMs,
            boolean compression,
            int waitMinutes) {
        static Options parse(String[] args) {
            Map<String, String> a = new LinkedHashMap<>();
            for (int i = 0; i + 1 < args.length; i += 2) {
                if (!args[i].startsWith("--")) {
                    throw new IllegalArgumentException("not an option: " + args[i]);
                }
                a.put(args[i].substring(2), args[i + 1]);
            }
            Options o =
                    new Options(
                            Stream.of(a.getOrDefault("links", "1000,10000").split(","))
                                    .map(Integer::parseInt)
                                    .toList(),
                            List.of(a.getOrDefault("backends", "hashmap,rocksdb").split(",")),
                            Integer.parseInt(a.getOrDefault("days", "7")),
                            Integer.parseInt(a.getOrDefault("dense-hours", "6")),
                            Long.parseLong(a.getOrDefault("managed-mb", "512")),
                            Long.parseLong(a.getOrDefault("checkpoint-interval-ms", "5000")),
                            Boolean.parseBoolean(a.getOrDefault("compression", "true")),
                            Integer.parseInt(a.getOrDefault("wait-minutes", "30")));
            a.keySet()
                    .removeAll(
                            List.of(
                                    "links",
                                    "backends",
                                    "days",
                                    "dense-hours",
                                    "managed-mb",
                                    "checkpoint-interval-ms",
                                    "compression",
                                    "wait-minutes"));
            if (!a.isEmpty()) {
                throw new IllegalArgumentException("unknown options " + a.keySet());
            }
            return o;
        }
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
        wait = Duration.ofMinutes(o.waitMinutes());
        System.out.printf(
                "machine: %d cores, JVM max heap %d MB; days %d, pings and traceroutes in the last %d h; checkpoints every %d ms%s%n",
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20,
                o.days(),
                o.denseHours(),
                o.intervalMs(),
                o.compression() ? ", snapshot compression" : ", no snapshot compression");
        for (int links : o.links()) {
            for (String backend : o.backends()) {
                run(new WeekOfProbes(links, o.days(), o.denseHours()), backend, o);
            }
        }
        System.exit(0);
    }

    static void run(WeekOfProbes week, String backend, Options o) throws Exception {
        String name = "bench-" + UUID.randomUUID();
        boolean rocks = backend.equals("rocksdb");
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("links", week.links());
        r.put("backend", rocks ? "rocksdb (incremental)" : backend);
        r.put("snapshot_compression", o.compression());
        r.put("loadavg_at_start", loadAverage());
        System.out.printf("%n== %d links, %s ==%n", week.links(), r.get("backend"));
        BenchClock clock = BenchClock.create(name, week.end());
        try (LocalCluster cluster =
                LocalCluster.start(
                        backend, rocks, MemorySize.ofMebiBytes(rocks ? o.managedMb() : 0), 1)) {
            long t0 = System.nanoTime();
            JobID job = cluster.submit(graph(week, name, o, null));
            await(() -> running(cluster, job), "job running");
            long started = System.nanoTime();
            r.put("start_s", round(secs(started - t0)));
            await(clock::allAtGate, "a week of samples");
            long fed = System.nanoTime();
            long records = clock.emitted();
            r.put("records", records);
            r.put("records_per_s", Math.round(records / secs(fed - started)));
            r.put("ingest_s", round(secs(fed - started)));
            System.out.printf(
                    "fed %,d records (%s) in %.1f s: %,d records/s%n",
                    records, perKind(clock), secs(fed - started), r.get("records_per_s"));
            ingestCheckpoints(cluster, job, r);
            System.gc();
            r.put(
                    "heap_after_gc_mb",
                    (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20);

            CompletedCheckpointStats week1 = checkpoint(cluster, job, CheckpointType.DEFAULT);
            r.put("state_mb", mb(week1.getStateSize()));
            r.put("state_bytes_per_link", week1.getStateSize() / week.links());
            r.put("checkpoint_mb", mb(week1.getCheckpointedSize()));
            r.put("checkpoint_s", round(week1.getEndToEndDuration() / 1000.0));
            report("week of state, checkpoint", week1);
            perOperator(cluster, job, week1);
            CompletedCheckpointStats full = checkpoint(cluster, job, CheckpointType.FULL);
            r.put("full_checkpoint_mb", mb(full.getCheckpointedSize()));
            r.put("full_checkpoint_s", round(full.getEndToEndDuration() / 1000.0));
            report("full checkpoint", full);
            CompletedCheckpointStats idle = checkpoint(cluster, job, CheckpointType.DEFAULT);
            r.put("idle_checkpoint_mb", mb(idle.getCheckpointedSize()));
            report("checkpoint with nothing new", idle);

            clock.openGate(week.end() + Duration.ofMinutes(1).toMillis());
            await(clock::allAtGate, "one more minute");
            long minuteRecords = clock.emitted() - records;
            CompletedCheckpointStats minute = checkpoint(cluster, job, CheckpointType.DEFAULT);
            long uploaded =
                    uploadedSince(cluster, job, idle.getCheckpointId(), minute.getCheckpointId());
            r.put("minute_records", minuteRecords);
            r.put("minute_checkpoint_mb", mb(uploaded));
            r.put("minute_checkpoint_s", round(minute.getEndToEndDuration() / 1000.0));
            report("after one more minute (" + minuteRecords + " records), checkpoint", minute);
            System.out.printf(
                    "  written by every checkpoint since the idle one: %.2f MB%n", uploaded / 1e6);
            r.put(
                    "local_files_mb",
                    mb(sizeOf(cluster.dir()) - sizeOf(cluster.dir().resolve("checkpoints"))));
            cluster.mini().cancelJob(job).get(1, TimeUnit.MINUTES);
            await(() -> ended(cluster, job), "cancel");
            long c0 = System.nanoTime();
            await(() -> slotsFree(cluster), "the cancelled job's slot");
            r.put("slot_free_after_cancel_s", round(secs(System.nanoTime() - c0)));

            JobGraph again = graph(week, name, o, minute.getExternalPath());
            long r0 = System.nanoTime();
            JobID restored = cluster.submit(again);
            await(() -> running(cluster, restored), "restore from checkpoint");
            r.put("restore_checkpoint_s", round(secs(System.nanoTime() - r0)));
            CompletedCheckpointStats after = checkpoint(cluster, restored, CheckpointType.DEFAULT);
            System.out.printf(
                    "restored the checkpoint in %s s; state then %.2f MB (before: %.2f MB)%n",
                    r.get("restore_checkpoint_s"),
                    after.getStateSize() / 1e6,
                    minute.getStateSize() / 1e6);
            r.put("state_after_restore_mb", mb(after.getStateSize()));
            cluster.mini().cancelJob(restored).get(1, TimeUnit.MINUTES);
            await(() -> ended(cluster, restored), "cancel");
            await(() -> slotsFree(cluster), "the cancelled job's slot");
            long w0 = System.nanoTime();
            JobID again2 = cluster.submit(graph(week, name, o, minute.getExternalPath()));
            await(() -> running(cluster, again2), "restore from checkpoint, again");
            r.put("restore_checkpoint_again_s", round(secs(System.nanoTime() - w0)));
            System.out.printf(
                    "restored the same checkpoint again in %s s (the first restore in this JVM runs cold code)%n",
                    r.get("restore_checkpoint_again_s"));

            long s0 = System.nanoTime();
            String savepoint = cluster.stopWithSavepoint(again2, wait.toMinutes());
            r.put("savepoint_s", round(secs(System.nanoTime() - s0)));
            r.put("savepoint_mb", mb(sizeOf(Path.of(URI.create(savepoint)))));
            await(() -> slotsFree(cluster), "the stopped job's slot");
            long p0 = System.nanoTime();
            JobID fromSavepoint = cluster.submit(graph(week, name, o, savepoint));
            await(() -> running(cluster, fromSavepoint), "restore from savepoint");
            r.put("restore_savepoint_s", round(secs(System.nanoTime() - p0)));
            System.out.printf(
                    "canonical savepoint %s MB in %s s (stop included), restored in %s s%n",
                    r.get("savepoint_mb"), r.get("savepoint_s"), r.get("restore_savepoint_s"));
            cluster.mini().cancelJob(fromSavepoint).get(1, TimeUnit.MINUTES);
            await(() -> ended(cluster, fromSavepoint), "cancel");
            r.put("events", CountingSink.count(name + "-events"));
            r.put("dead_letters", CountingSink.count(name + "-dead"));
            if (CountingSink.count(name + "-dead") > 0) {
                throw new IllegalStateException(
                        "the generated samples gave dead letters: the figures are not valid");
            }
        } finally {
            BenchClock.remove(name);
        }
        r.put("loadavg_at_end", loadAverage());
        System.out.println("RESULT " + org.longhaul.flink.records.Json.write(r));
    }

    /**
     * The production pipeline fed by the bench sources; restored from a checkpoint or savepoint
     * when given.
     */
    static JobGraph graph(WeekOfProbes week, String clock, Options o, String restoreFrom) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.getConfig().enableObjectReuse();
        env.enableCheckpointing(o.intervalMs(), CheckpointingMode.EXACTLY_ONCE);
        env.getCheckpointConfig()
                .setExternalizedCheckpointRetention(
                        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        Sources sources =
                new Sources(
                        new BenchSource(week, WeekOfProbes.Kind.THROUGHPUT, clock),
                        new BenchSource(week, WeekOfProbes.Kind.PATH, clock),
                        new BenchSource(week, WeekOfProbes.Kind.RTT, clock),
                        new BenchSource(week, WeekOfProbes.Kind.LATENCY, clock),
                        new BenchSource(week, WeekOfProbes.Kind.HOST, clock),
                        BridgeLists.none());
        Sinks sinks =
                new Sinks(
                        new CountingSink<LinkStats>(clock + "-stats"),
                        new CountingSink<Event>(clock + "-events"),
                        new CountingSink<DeadLetter>(clock + "-dead"),
                        new CountingSink<ProbeRequest>(clock + "-requests"),
                        new CountingSink<Validated>(clock + "-paths"));
        PipelineConfig d = PipelineConfig.defaults();
        // a source held back by the clock is idle after 2 s instead of 1 min, so it does not hold
        // the watermark
        PipelineConfig cfg =
                new PipelineConfig(
                        d.outOfOrderness(),
                        Duration.ofSeconds(2),
                        d.stateTtl(),
                        null,
                        d.clockSkewTolerance(),
                        d.statsStagger(),
                        d.statsSettle(),
                        // the bench's links all have one src, which no real host has
                        new LinkCap(1_000_000, d.linkCap().forgetAfter()),
                        d.detectors());
        LinkMonitorPipeline.wire(env, sources, sinks, cfg);
        env.getConfig()
                .setUseSnapshotCompression(
                        o.compression()); // the job's choice (true) unless asked otherwise
        JobGraph graph = env.getStreamGraph().getJobGraph();
        if (restoreFrom != null) {
            graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(restoreFrom, false));
        }
        return graph;
    }

    private static CompletedCheckpointStats checkpoint(
            LocalCluster cluster, JobID job, CheckpointType type) throws Exception {
        long id =
                cluster.mini().triggerCheckpoint(job, type).get(wait.toMinutes(), TimeUnit.MINUTES);
        AbstractCheckpointStats stats =
                graph(cluster, job).getCheckpointStatsSnapshot().getHistory().getCheckpointById(id);
        if (!(stats instanceof CompletedCheckpointStats done)) {
            throw new IllegalStateException("checkpoint " + id + " not completed: " + stats);
        }
        return done;
    }

    /**
     * Bytes written by every completed checkpoint with an id in (after, upTo]: periodic ones count
     * too.
     */
    private static long uploadedSince(LocalCluster cluster, JobID job, long after, long upTo)
            throws Exception {
        long sum = 0;
        for (AbstractCheckpointStats s :
                graph(cluster, job).getCheckpointStatsSnapshot().getHistory().getCheckpoints()) {
            if (s.getCheckpointId() > after
                    && s.getCheckpointId() <= upTo
                    && s instanceof CompletedCheckpointStats) {
                sum += s.getCheckpointedSize();
            }
        }
        return sum;
    }

    /** The periodic checkpoints taken while the week was fed, as production would take them. */
    private static void ingestCheckpoints(LocalCluster cluster, JobID job, Map<String, Object> r)
            throws Exception {
        var snapshot = graph(cluster, job).getCheckpointStatsSnapshot();
        var duration = snapshot.getSummaryStats().getEndToEndDurationStats();
        var size = snapshot.getSummaryStats().getCheckpointedSize();
        r.put("ingest_checkpoints", snapshot.getCounts().getNumberOfCompletedCheckpoints());
        r.put("ingest_checkpoints_failed", snapshot.getCounts().getNumberOfFailedCheckpoints());
        r.put("ingest_checkpoint_p50_s", round(duration.getQuantile(0.5) / 1000.0));
        r.put("ingest_checkpoint_max_s", round(duration.getMaximum() / 1000.0));
        r.put("ingest_checkpoint_written_max_mb", mb(size.getMaximum()));
        System.out.printf(
                "while feeding: %d checkpoints (%d failed), p50 %.2f s, max %.2f s, at most %.2f MB written%n",
                snapshot.getCounts().getNumberOfCompletedCheckpoints(),
                snapshot.getCounts().getNumberOfFailedCheckpoints(),
                duration.getQuantile(0.5) / 1000.0,
                duration.getMaximum() / 1000.0,
                size.getMaximum() / 1e6);
    }

    private static void report(String what, CompletedCheckpointStats s) {
        System.out.printf(
                "%s #%d: state %.2f MB, written %.2f MB, %.2f s%n",
                what,
                s.getCheckpointId(),
                s.getStateSize() / 1e6,
                s.getCheckpointedSize() / 1e6,
                s.getEndToEndDuration() / 1000.0);
    }

    private static void perOperator(LocalCluster cluster, JobID job, CompletedCheckpointStats s)
            throws Exception {
        AccessExecutionGraph g = graph(cluster, job);
        Map<String, Long> sizes = new TreeMap<>();
        for (TaskStateStats t : s.getAllTaskStateStats()) {
            sizes.put(g.getJobVertex(t.getJobVertexId()).getName(), t.getStateSize());
        }
        sizes.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(
                        e ->
                                System.out.printf(
                                        "    %10.2f MB  %s%n",
                                        e.getValue() / 1e6, abbreviate(e.getKey())));
    }

    private static String abbreviate(String name) {
        return name.length() > 60 ? name.substring(0, 57) + "..." : name;
    }

    private static String perKind(BenchClock clock) {
        List<String> parts = new ArrayList<>();
        for (WeekOfProbes.Kind k : WeekOfProbes.Kind.values()) {
            parts.add(k.name().toLowerCase() + " " + String.format("%,d", clock.emitted(k)));
        }
        return String.join(", ", parts);
    }

    private static AccessExecutionGraph graph(LocalCluster cluster, JobID job) throws Exception {
        return cluster.mini().getExecutionGraph(job).get(1, TimeUnit.MINUTES);
    }

    private static boolean running(LocalCluster cluster, JobID job) {
        try {
            AccessExecutionGraph g = graph(cluster, job);
            if (g.getState() != org.apache.flink.api.common.JobStatus.RUNNING
                    || !g.getAllExecutionVertices().iterator().hasNext()) {
                return false; // a job still initializing shows no tasks yet
            }
            for (AccessExecutionVertex v : g.getAllExecutionVertices()) {
                if (v.getExecutionState() != ExecutionState.RUNNING) {
                    if (v.getExecutionState() == ExecutionState.FAILED) {
                        throw new IllegalStateException(
                                "task failed: "
                                        + v.getTaskNameWithSubtaskIndex()
                                        + ": "
                                        + v.getFailureInfo());
                    }
                    return false;
                }
            }
            return true;
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * Restore times start once the previous job has given its slot back, not while it is still
     * being torn down.
     */
    private static boolean slotsFree(LocalCluster cluster) {
        try {
            var o = cluster.mini().requestClusterOverview().get(10, TimeUnit.SECONDS);
            return o.getNumSlotsAvailable() == o.getNumSlotsTotal();
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean ended(LocalCluster cluster, JobID job) {
        try {
            return cluster.mini()
                    .getJobStatus(job)
                    .get(10, TimeUnit.SECONDS)
                    .isGloballyTerminalState();
        } catch (Exception e) {
            return false;
        }
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    /**
     * Bytes under dir; files that go away while it is walked (RocksDB and checkpoint clean-up) are
     * skipped.
     */
    private static long sizeOf(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return 0;
        }
        long[] sum = {0};
        Files.walkFileTree(
                dir,
                new java.nio.file.SimpleFileVisitor<>() {
                    @Override
                    public java.nio.file.FileVisitResult visitFile(
                            Path file, java.nio.file.attribute.BasicFileAttributes attrs) {
                        sum[0] += attrs.size();
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }

                    @Override
                    public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) {
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }
                });
        return sum[0];
    }

    /** The machine's 1-minute load average (others share it): /proc/loadavg, or "?" elsewhere. */
    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException e) {
            return "?";
        }
    }

    private static double secs(long nanos) {
        return nanos / 1e9;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    private static double mb(long bytes) {
        return Math.round(bytes / 1e4) / 100.0;
    }
}
