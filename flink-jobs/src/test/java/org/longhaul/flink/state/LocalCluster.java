package org.longhaul.flink.state;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ClusterOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.longhaul.flink.replay.LocalFiles;

/**
 * An embedded Flink cluster (one TaskManager, one slot per task chain) with a given state backend,
 * bound to 127.0.0.1 on ephemeral ports, every file in a private directory removed on close.
 */
public final class LocalCluster implements AutoCloseable {
    private final MiniCluster mini;
    private final Path dir;

    private LocalCluster(MiniCluster mini, Path dir) {
        this.mini = mini;
        this.dir = dir;
    }

    /**
     * backend: hashmap or rocksdb; incremental checkpoints for rocksdb when asked; managed memory
     * for RocksDB.
     */
    public static LocalCluster start(
            String backend, boolean incremental, MemorySize managed, int slots) throws Exception {
        Path dir = Files.createTempDirectory("longhaul-state-");
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, "0");
        conf.set(CoreOptions.TMP_DIRS, dir.toString());
        conf.set(ClusterOptions.PROCESS_WORKING_DIR_BASE, dir.toString());
        conf.set(WebOptions.TMP_DIR, dir.toString());
        conf.set(WebOptions.UPLOAD_DIR, dir.resolve("web-upload").toString());
        conf.set(StateBackendOptions.STATE_BACKEND, backend);
        conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, incremental);
        conf.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                dir.resolve("checkpoints").toUri().toString());
        conf.set(
                CheckpointingOptions.SAVEPOINT_DIRECTORY,
                dir.resolve("savepoints").toUri().toString());
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, managed);
        conf.set(
                RestartStrategyOptions.RESTART_STRATEGY,
                "none"); // a restore that fails, fails the test at once
        conf.set(
                CheckpointingOptions.FS_SMALL_FILE_THRESHOLD,
                MemorySize.ofMebiBytes(1)); // small state: all in _metadata
        MiniCluster mini =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(conf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(slots)
                                .build());
        mini.start();
        return new LocalCluster(mini, dir);
    }

    public static LocalCluster start(String backend) throws Exception {
        return start(backend, false, MemorySize.ofMebiBytes(128), 1);
    }

    public MiniCluster mini() {
        return mini;
    }

    public Path dir() {
        return dir;
    }

    public JobID submit(JobGraph graph) throws Exception {
        return mini.submitJob(graph).get(1, TimeUnit.MINUTES).getJobID();
    }

    /**
     * Stops the job with a canonical savepoint under this cluster's folder, waiting up to {@code
     * minutes}; returns the savepoint's location.
     */
    public String stopWithSavepoint(JobID job, long minutes) throws Exception {
        return mini.stopWithSavepoint(
                        job,
                        dir.resolve("savepoints").toUri().toString(),
                        false,
                        SavepointFormatType.CANONICAL)
                .get(minutes, TimeUnit.MINUTES);
    }

    /** Waits for the job to end and fails with its cause unless it finished. */
    public void awaitSuccess(JobID job, Duration timeout) throws Exception {
        JobResult result =
                mini.requestJobResult(job).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!result.isSuccess()) {
            throw new IllegalStateException(
                    "job " + job + " did not finish: " + result.getApplicationStatus(),
                    result.getSerializedThrowable()
                            .map(t -> t.deserializeError(getClass().getClassLoader()))
                            .orElse(null));
        }
    }

    @Override
    public void close() throws Exception {
        try {
            mini.close();
        } finally {
            LocalFiles.deleteTree(dir);
        }
    }
}
