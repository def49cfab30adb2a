package org.longhaul.flink.bench;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.longhaul.flink.records.Contract;

/**
 * Raw samples of a mesh of {@code links} links over {@code days} of event time at the agent's
 * production cadence (collectors/longhaul-probe.example.yaml): per link a TCP throughput run every
 * 4 h (a summary and 10 one-second intervals, with the host snapshot the agent sends with each
 * run), a ping every minute and a traceroute of 15 hops × 3 queries every 10 minutes; each link at
 * its own phase in the period, so every stream is in event-time order. Pings and traceroutes run
 * only for the last {@code denseHours} of the period (all of it when denseHours = days × 24): the
 * state they leave is bounded after a few hours (StateBackendBench checks this), while a week of
 * them is 90 % of the records. Links are src-i → dst-j of a square mesh; each has its own capacity
 * (10 Mbit/s to 10 Gbit/s, ±30 % per run) and RTT (5–300 ms). Record k of a stream is computed, not
 * stored.
 */
public record WeekOfProbes(int links, int days, int denseHours) implements Serializable {
    /** Monday 2026-11-16 00:00 UTC. */
    public static final long START = Instant.parse("2026-11-16T00:00:00Z").toEpochMilli();

    static final long RUN_EVERY = Duration.ofHours(4).toMillis();
    static final long PING_EVERY = Duration.ofMinutes(1).toMillis();
    static final long PATH_EVERY = Duration.ofMinutes(10).toMillis();
    static final int INTERVALS = 10;
    static final int HOPS = 15;

    public enum Kind {
        THROUGHPUT(Contract.TOPIC_THROUGHPUT),
        PATH(Contract.TOPIC_PATH),
        RTT(Contract.TOPIC_RTT),
        LATENCY(Contract.TOPIC_LATENCY),
        HOST(Contract.TOPIC_HOST);

        public final String topic;

        Kind(String topic) {
            this.topic = topic;
        }
    }

    public long end() {
        return START + Duration.ofDays(days).toMillis();
    }

    long denseStart() {
        return end() - Duration.ofHours(denseHours).toMillis();
    }

    int side() {
        return (int) Math.ceil(Math.sqrt(links));
    }

    /** Event time of record k of a stream. */
    public long ts(Kind kind, long k) {
        return switch (kind) {
            case THROUGHPUT -> runStart(k / (INTERVALS + 1)) + (k % (INTERVALS + 1)) * 1000L;
            case HOST -> runStart(k);
            case RTT, LATENCY -> slot(denseStart(), PING_EVERY, k);
            case PATH -> slot(denseStart(), PATH_EVERY, k);
        };
    }

    /** The JSON of record k of a stream, as the agent writes it. */
    public byte[] payload(Kind kind, long k) {
        String json =
                switch (kind) {
                    case THROUGHPUT -> throughput(k);
                    case HOST -> host(k);
                    case RTT -> ping(k);
                    case LATENCY -> latency(k);
                    case PATH -> path(k);
                };
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private long runStart(long run) {
        return slot(START, RUN_EVERY, run);
    }

    private long slot(long from, long every, long k) {
        long round = k / links;
        long link = k % links;
        return from + round * every + link * every / links;
    }

    private int link(long k) {
        return (int) (k % links);
    }

    private StringBuilder envelope(String schema, int link, String probeId, long ts) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"schema\":\"")
                .append(schema)
                .append("\",\"version\":1,\"src\":\"src-")
                .append(link / side())
                .append(".bench.example\",\"dst\":\"dst-")
                .append(link % side())
                .append(".bench.example\",\"probe_id\":\"")
                .append(probeId)
                .append("\",\"ts\":")
                .append(ts);
        return b;
    }

    private String throughput(long k) {
        long run = k / (INTERVALS + 1);
        int j = (int) (k % (INTERVALS + 1));
        int link = link(run);
        long start = runStart(run);
        double bps = capacity(link) * (0.7 + 0.6 * unit(link, run));
        if (j == 0) {
            return envelope("throughput_sample", link, "tcp-default", start)
                    .append(",\"run_id\":\"r-")
                    .append(run)
                    .append("\",\"record\":\"summary\",\"tool\":\"iperf3\",\"protocol\":\"tcp\"")
                    .append(
                            ",\"direction\":\"forward\",\"streams\":1,\"duration_s\":10.0,\"bits_per_second\":")
                    .append(bps)
                    .append(",\"bytes\":")
                    .append((long) (bps * INTERVALS / 8))
                    .append(",\"retransmits\":")
                    .append((long) (unit(link, run + 7) * 40))
                    .append('}')
                    .toString();
        }
        double x = bps * (0.9 + 0.2 * unit(link, k));
        return envelope("throughput_sample", link, "tcp-default", start + j * 1000L)
                .append(",\"run_id\":\"r-")
                .append(run)
                .append("\",\"record\":\"interval\",\"tool\":\"iperf3\",\"protocol\":\"tcp\"")
                .append(",\"start_s\":")
                .append(j - 1)
                .append(".0,\"end_s\":")
                .append(j)
                .append(".0,\"bits_per_second\":")
                .append(x)
                .append(",\"bytes\":")
                .append((long) (x / 8))
                .append('}')
                .toString();
    }

    private String host(long k) {
        int link = link(k);
        return envelope("host_snapshot", link, "tcp-default", runStart(k))
                .append(",\"run_id\":\"r-")
                .append(k)
                .append("\",\"tcp_rmem\":[4096,131072,6291456],\"tcp_wmem\":[4096,16384,4194304]")
                .append(
                        ",\"rmem_max\":212992,\"wmem_max\":212992,\"congestion_control\":\"cubic\"}")
                .toString();
    }

    private String ping(long k) {
        int link = link(k);
        long ts = ts(Kind.RTT, k);
        double rtt = rtt(link) * (1 + 0.02 * unit(link, k));
        double mdev = 0.05 + 0.5 * unit(link, k + 3);
        return envelope("rtt_sample", link, "ping", ts)
                .append(",\"run_id\":\"p-")
                .append(k)
                .append("\",\"tool\":\"ping\",\"sent\":10,\"received\":10,\"loss_percent\":0.0")
                .append(",\"rtt_min_ms\":")
                .append(rtt - mdev)
                .append(",\"rtt_avg_ms\":")
                .append(rtt)
                .append(",\"rtt_max_ms\":")
                .append(rtt + 2 * mdev)
                .append(",\"rtt_mdev_ms\":")
                .append(mdev)
                .append('}')
                .toString();
    }

    /** A latencybg result a minute: half the path's RTT one way, its spread as jitter. */
    private String latency(long k) {
        int link = link(k);
        long ts = ts(Kind.LATENCY, k);
        double owd = rtt(link) / 2 * (1 + 0.02 * unit(link, k));
        double jitter = 0.02 + 0.2 * unit(link, k + 5);
        return envelope("latency_sample", link, "pscheduler-latencybg", ts)
                .append(",\"run_id\":\"l-")
                .append(k)
                .append("\",\"tool\":\"powstream\",\"packets_sent\":600")
                .append(",\"packets_received\":600,\"packets_lost\":0,\"loss_percent\":0.0")
                .append(",\"delay_min_ms\":")
                .append(owd - jitter)
                .append(",\"delay_median_ms\":")
                .append(owd)
                .append(",\"delay_mean_ms\":")
                .append(owd)
                .append(",\"delay_p95_ms\":")
                .append(owd + jitter)
                .append(",\"delay_max_ms\":")
                .append(owd + 2 * jitter)
                .append(",\"jitter_ms\":")
                .append(jitter)
                .append('}')
                .toString();
    }

    private String path(long k) {
        int link = link(k);
        long ts = ts(Kind.PATH, k);
        double rtt = rtt(link);
        StringBuilder b =
                envelope("path_sample", link, "path", ts)
                        .append(",\"run_id\":\"t-")
                        .append(k)
                        .append("\",\"tool\":\"traceroute\",\"reached\":true,\"hops\":[");
        for (int hop = 1; hop <= HOPS; hop++) {
            // the first hops are the source site's, the last the destination's, the middle the
            // link's own
            int net =
                    hop <= 3 ? link / side() : hop >= HOPS - 2 ? 1000 + link % side() : 2000 + link;
            String addr = "10." + (net / 250 % 250) + "." + (net % 250) + "." + hop;
            double hopRtt = rtt * hop / HOPS;
            b.append(hop > 1 ? "," : "").append("{\"ttl\":").append(hop).append(",\"probes\":[");
            for (int q = 0; q < 3; q++) {
                b.append(q > 0 ? "," : "")
                        .append("{\"addr\":\"")
                        .append(addr)
                        .append("\",\"rtt_ms\":")
                        .append(hopRtt + 0.1 * q)
                        .append('}');
            }
            b.append("]}");
        }
        return b.append("]}").toString();
    }

    private static double capacity(int link) {
        return Math.pow(10, 7 + 3 * unit(link, -1));
    }

    private static double rtt(int link) {
        return 5 + 295 * unit(link, -2);
    }

    /** A deterministic number in [0, 1) from two integers (SplitMix64 finaliser). */
    static double unit(long a, long b) {
        long z = a * 0x9E3779B97F4A7C15L + b + 0x632BE59BD9B4E019L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z = z ^ (z >>> 31);
        return (z >>> 11) * 0x1.0p-53;
    }
}
