package org.longhaul.flink.jobs;

import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Longhaul job on Kafka: the four raw topics in, link statistics, events and dead letters out
 * (exactly once). Only wiring; see README.md for the arguments.
 */
public final class LinkMonitorJob {
    private static final Logger LOG = LoggerFactory.getLogger(LinkMonitorJob.class);

    private LinkMonitorJob() {}

    public static void main(String[] argv) throws Exception {
        if (argv.length == 1 && "--version".equals(argv[0])) {
            System.out.println(BuildInfo.current().line());
            return;
        }
        LOG.info("{}", BuildInfo.current().line());
        JobArgs args = JobArgs.parse(argv);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        build(env, args);
        env.execute(args.jobName());
    }

    /** The whole job but its execution: settings and graph, so tests can inspect what runs. */
    static void build(StreamExecutionEnvironment env, JobArgs args) {
        if (args.parallelism() > 0) {
            env.setParallelism(args.parallelism());
        }
        if (args.objectReuse()) {
            env.getConfig().enableObjectReuse();
        }
        env.enableCheckpointing(
                args.checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
        LinkMonitorPipeline.wire(
                env,
                KafkaConnectors.sources(args.kafka()),
                KafkaConnectors.sinks(args.kafka()),
                args.pipeline());
    }
}
