package org.longhaul.flink.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/** The Kafka job's state settings, chosen from docs/benchmarks.md ("State backend"). */
class StateSettingsTest {

    @Test
    void theJobCheckpointsExactlyOnceWithCompressedSnapshotsAndFixedKeyGroups() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        LinkMonitorJob.build(
                env,
                JobArgs.parse(
                        new String[] {
                            "--kafka-user",
                            "flink",
                            "--kafka-password-file",
                            "/run/secrets/kafka-flink.password",
                            "--checkpoint-interval",
                            "7s"
                        }));
        assertTrue(env.getConfig().isUseSnapshotCompression(), "snapshot compression");
        assertEquals(LinkMonitorPipeline.MAX_PARALLELISM, env.getMaxParallelism());
        assertEquals(7_000, env.getCheckpointConfig().getCheckpointInterval());
        assertEquals(
                CheckpointingMode.EXACTLY_ONCE,
                env.getCheckpointConfig().getCheckpointingConsistencyMode());
    }
}
