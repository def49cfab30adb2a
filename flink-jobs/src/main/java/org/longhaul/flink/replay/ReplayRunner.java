package org.longhaul.flink.replay;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.flink.configuration.BlobServerOptions;
import org.apache.flink.configuration.ClusterOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.longhaul.flink.functions.BridgeLists;
import org.longhaul.flink.jobs.LinkMonitorPipeline;
import org.longhaul.flink.jobs.PipelineConfig;
import org.longhaul.flink.jobs.Sinks;
import org.longhaul.flink.jobs.Sources;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.LinkStats;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.records.Validated;

/**
 * Runs the job graph of {@link LinkMonitorPipeline} on an embedded MiniCluster over bounded
 * in-memory input, parallelism 1, bound to 127.0.0.1 on pinned port ranges, with its temporary
 * files in a private directory that is removed afterwards. Events, stats and dead letters go to the
 * given streams as JSON Lines (stats only when a stream is given).
 */
public final class ReplayRunner {
    private ReplayRunner() {}

    public static void run(
            ReplayInput input,
            PipelineConfig cfg,
            PrintStream events,
            PrintStream stats,
            PrintStream deadLetters)
            throws Exception {
        String id = UUID.randomUUID().toString();
        Path tmp = Files.createTempDirectory("longhaul-replay-");
        String eventsCh = "events-" + id;
        String statsCh = "stats-" + id;
        String deadCh = "deadletters-" + id;
        Channels.open(eventsCh, events);
        Channels.open(
                statsCh, stats != null ? stats : new PrintStream(OutputStream.nullOutputStream()));
        Channels.open(deadCh, deadLetters);
        try {
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createLocalEnvironment(1, clusterConfig(tmp));
            env.getConfig().enableObjectReuse(); // as the job runs by default (--object-reuse true)
            Sources sources =
                    new Sources(
                            ListSource.of(input.throughput()),
                            ListSource.of(input.path()),
                            ListSource.of(input.rtt()),
                            ListSource.of(input.latency()),
                            ListSource.of(input.host()),
                            BridgeLists.none());
            Sinks sinks =
                    new Sinks(
                            new JsonLinesSink<LinkStats>(statsCh),
                            new JsonLinesSink<Event>(eventsCh),
                            new JsonLinesSink<DeadLetter>(deadCh),
                            new JsonLinesSink<ProbeRequest>(eventsCh),
                            new DiscardingSink<Validated>());
            LinkMonitorPipeline.wire(env, sources, sinks, cfg);
            env.execute("longhaul-replay");
        } finally {
            Channels.close(eventsCh);
            Channels.close(statsCh);
            Channels.close(deadCh);
            LocalFiles.deleteTree(tmp);
        }
    }

    static Configuration clusterConfig(Path tmp) {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, "18081-18180");
        conf.set(BlobServerOptions.PORT, "18181-18280");
        conf.set(CoreOptions.TMP_DIRS, tmp.toString());
        conf.set(ClusterOptions.PROCESS_WORKING_DIR_BASE, tmp.toString());
        conf.set(WebOptions.TMP_DIR, tmp.toString());
        conf.set(WebOptions.UPLOAD_DIR, tmp.resolve("web-upload").toString());
        return conf;
    }
}
