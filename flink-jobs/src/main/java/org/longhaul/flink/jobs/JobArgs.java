package org.longhaul.flink.jobs;

import java.time.Duration;
import org.longhaul.flink.functions.LinkCap;
import org.longhaul.flink.functions.stats.Stagger;
import org.longhaul.flink.records.Contract;

/** The command line of {@link LinkMonitorJob}: every argument, its default, in one place. */
public record JobArgs(
        KafkaOptions kafka,
        PipelineConfig pipeline,
        Duration checkpointInterval,
        int parallelism,
        String jobName,
        boolean objectReuse) {

    /**
     * How often the exactly-once checkpoints run, and so when the sinks' output becomes visible to
     * a reader of committed records (the alert bridge, the watchdog, {@code longhaul tail});
     * Telegraf reads uncommitted and writes InfluxDB at once. Each checkpoint snapshots the whole
     * heap state: every 5 s that was a quarter of the TaskManager's CPU a record at 10k links (28.7
     * / 32.9 µs a record at 5 s, 22.2 / 24.1 at 30 s; docs/benchmarks.md, Flink throughput), for
     * events a minute's detection windows make anyway.
     */
    static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(30);

    public static JobArgs parse(String[] argv) {
        Args a = new Args(argv);
        KafkaOptions kafka =
                new KafkaOptions(
                        kafkaBootstrap(a),
                        a.string("group-id", "longhaul-link-monitor"),
                        a.string("starting-offsets", "committed"),
                        a.string("topic-throughput", Contract.TOPIC_THROUGHPUT),
                        a.string("topic-history-throughput", Contract.TOPIC_HISTORY_THROUGHPUT),
                        a.string("topic-path", Contract.TOPIC_PATH),
                        a.string("topic-rtt", Contract.TOPIC_RTT),
                        a.string("topic-latency", Contract.TOPIC_LATENCY),
                        a.string("topic-host", Contract.TOPIC_HOST),
                        a.string("topic-stats", Contract.TOPIC_STATS),
                        a.string("topic-events", Contract.TOPIC_EVENTS),
                        a.string("topic-deadletter", Contract.TOPIC_DEAD_LETTER),
                        a.string("topic-probe-requests", Contract.TOPIC_PROBE_REQUESTS),
                        a.string("topic-paths", Contract.TOPIC_PATHS),
                        a.string("transactional-id-prefix", "longhaul-link-monitor"),
                        a.duration("transaction-timeout", Duration.ofMinutes(10)),
                        a.duration("topic-relist", Duration.ofMinutes(1)),
                        KafkaSecurity.parse(a));
        KafkaConnectors.startingOffsets(kafka.startingOffsets());
        PipelineConfig pipeline = pipeline(a);
        JobArgs args =
                new JobArgs(
                        kafka,
                        pipeline,
                        a.duration("checkpoint-interval", CHECKPOINT_INTERVAL),
                        (int) a.integer("parallelism", -1),
                        a.string("job-name", "longhaul-link-monitor"),
                        objectReuse(a.string("object-reuse", "true")));
        a.requireAllKnown();
        return args;
    }

    /**
     * --kafka HOST:PORT,... (default 127.0.0.1:9092): the name every Longhaul program gives the
     * bootstrap list (internal/settings). --bootstrap-servers, its former name, is still read.
     */
    private static String kafkaBootstrap(Args a) {
        String legacy = a.string("bootstrap-servers", "127.0.0.1:9092");
        return a.string("kafka", legacy);
    }

    /**
     * --object-reuse true|false (default true): Flink passes records between chained operators
     * without copying them. Safe because every record of the job is immutable (Java records, lists
     * never modified after construction) and no function keeps an input beyond its call except in
     * keyed state; the copies cost 22 % of the TaskManager's CPU (docs/benchmarks-log.md).
     */
    private static boolean objectReuse(String v) {
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException("--object-reuse: true or false, not " + v);
        }
        return Boolean.parseBoolean(v);
    }

    /**
     * --stats-settle DURATION|off (default 5s): once a link's own data have passed a minute's end,
     * the minute closes this much later, unless the watermark closed it before (5s is what the
     * fleet benchmark measured); off: the watermark alone.
     */
    static Duration statsSettle(Args a, Duration dflt) {
        if ("off".equals(a.string("stats-settle", null))) {
            return null;
        }
        return a.duration("stats-settle", dflt);
    }

    /** The pipeline's own arguments, shared with the replay command. */
    public static PipelineConfig pipeline(Args a) {
        PipelineConfig d = PipelineConfig.defaults();
        return new PipelineConfig(
                a.duration("out-of-orderness", d.outOfOrderness()),
                a.duration("idleness", d.idleness()),
                a.duration("state-ttl", d.stateTtl()),
                a.string("schemas-dir", null),
                a.duration("clock-skew-tolerance", d.clockSkewTolerance()),
                new Stagger(a.duration("stats-stagger", d.statsStagger().spread())),
                statsSettle(a, d.statsSettle()),
                new LinkCap(
                        (int) a.integer("max-links-per-src", d.linkCap().maxPerSrc()),
                        a.duration("link-forget-after", d.linkCap().forgetAfter())),
                DetectorArgs.parse(a));
    }
}
