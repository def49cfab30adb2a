package org.longhaul.flink.testing;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import org.longhaul.flink.records.HostSnapshot;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.records.LatencySample;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.ThroughputSample;

/**
 * Raw samples for tests, built as the collectors write them (JSON per the contract) and read back
 * through the same mapping as the job. Fixed time anchor: {@link #T0} (2012-01-05 07:00 UTC).
 */
public final class Samples {
    public static final long T0 = 1_325_746_800_000L;
    public static final long MINUTE = 60_000L;
    public static final long HOUR = 60 * MINUTE;
    public static final String SRC = "perfsonar.ihep.ac.cn";
    public static final String DST = "cclhcone01.in2p3.fr";

    private Samples() {}

    private static ObjectNode envelope(
            String schema, String src, String dst, String probeId, long ts) {
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("schema", schema)
                .put("version", 1)
                .put("src", src)
                .put("dst", dst)
                .put("probe_id", probeId)
                .put("ts", ts);
        return n;
    }

    /** An iperf3 record of run runId (throughput_sample): its envelope, run id, record and tool. */
    private static ObjectNode iperf3(
            String src, String dst, String probeId, long ts, String runId, String record) {
        ObjectNode n = envelope("throughput_sample", src, dst, probeId, ts);
        n.put("run_id", runId).put("record", record).put("tool", "iperf3");
        return n;
    }

    public static ObjectNode interval(
            String src,
            String dst,
            String runId,
            long runStart,
            double startS,
            double endS,
            double bps) {
        ObjectNode n =
                iperf3(src, dst, "tcp-default", runStart + (long) (endS * 1000), runId, "interval");
        n.put("protocol", "tcp")
                .put("start_s", startS)
                .put("end_s", endS)
                .put("bits_per_second", bps)
                .put("bytes", (long) (bps * (endS - startS) / 8));
        return n;
    }

    public static ObjectNode summary(
            String src, String dst, String runId, long runStart, double bps) {
        ObjectNode n = iperf3(src, dst, "tcp-default", runStart, runId, "summary");
        n.put("protocol", "tcp")
                .put("direction", "forward")
                .put("streams", 1)
                .put("duration_s", 10.0)
                .put("bits_per_second", bps)
                .put("bytes", (long) (bps * 10 / 8));
        return n;
    }

    /**
     * A 10 s TCP run as the agent sends it, as JSON lines: its summary at {@code bps}, then its
     * 1-second intervals, second s at {@code rate.applyAsDouble(s)} (called in order).
     */
    public static List<String> tcpRun(
            String src,
            String dst,
            String runId,
            long start,
            double bps,
            IntToDoubleFunction rate) {
        List<String> lines = new ArrayList<>();
        lines.add(summary(src, dst, runId, start, bps).toString());
        for (int s = 0; s < 10; s++) {
            lines.add(interval(src, dst, runId, start, s, s + 1, rate.applyAsDouble(s)).toString());
        }
        return lines;
    }

    public static ObjectNode failed(
            String src, String dst, String runId, long runStart, String errorClass) {
        ObjectNode n = iperf3(src, dst, "tcp-default", runStart, runId, "summary");
        n.put("protocol", "tcp");
        n.putObject("error").put("class", errorClass).put("message", errorClass.replace('_', ' '));
        return n;
    }

    public static ObjectNode udpSummary(
            String src,
            String dst,
            String runId,
            long runStart,
            double lossPercent,
            double jitterMs) {
        ObjectNode n = iperf3(src, dst, "udp-300m", runStart, runId, "summary");
        long packets = 260_000;
        n.put("protocol", "udp")
                .put("bits_per_second", 3.0e8)
                .put("jitter_ms", jitterMs)
                .put("packets", packets)
                .put("lost_packets", Math.round(packets * lossPercent / 100))
                .put("loss_percent", lossPercent);
        return n;
    }

    public static ObjectNode ping(
            String src, String dst, long ts, int sent, int received, double avgMs, double mdevMs) {
        ObjectNode n = envelope("rtt_sample", src, dst, "ping", ts);
        n.put("run_id", "ping-" + ts)
                .put("tool", "ping")
                .put("sent", sent)
                .put("received", received)
                .put("loss_percent", sent == 0 ? 0.0 : 100.0 * (sent - received) / sent);
        if (received > 0) {
            n.put("rtt_min_ms", avgMs - mdevMs)
                    .put("rtt_avg_ms", avgMs)
                    .put("rtt_max_ms", avgMs + mdevMs)
                    .put("rtt_mdev_ms", mdevMs);
        }
        return n;
    }

    /**
     * A one-way latency run (pScheduler latencybg, powstream) from src to dst: {@code sent}
     * packets, {@code lost} of them lost, the delay around {@code owdMs}.
     */
    public static ObjectNode latency(
            String src, String dst, long ts, int sent, int lost, double owdMs) {
        ObjectNode n = envelope("latency_sample", src, dst, "pscheduler-latencybg", ts);
        n.put("run_id", "latency-" + ts)
                .put("tool", "powstream")
                .put("packets_sent", sent)
                .put("packets_received", sent - lost)
                .put("packets_lost", lost)
                .put("loss_percent", sent == 0 ? 0.0 : 100.0 * lost / sent);
        if (lost < sent) {
            n.put("delay_min_ms", owdMs - 0.05)
                    .put("delay_median_ms", owdMs)
                    .put("delay_mean_ms", owdMs + 0.01)
                    .put("delay_p95_ms", owdMs + 0.1)
                    .put("delay_max_ms", owdMs + 0.4)
                    .put("jitter_ms", 0.1);
        }
        return n;
    }

    /** A traceroute run: per TTL the addresses that answered its queries (null for `*`). */
    public static ObjectNode path(
            String src,
            String dst,
            long ts,
            boolean reached,
            double lastRttMs,
            List<List<String>> hops) {
        ObjectNode n = envelope("path_sample", src, dst, "path", ts);
        n.put("run_id", "path-" + ts).put("tool", "traceroute").put("reached", reached);
        ArrayNode arr = n.putArray("hops");
        for (int i = 0; i < hops.size(); i++) {
            ObjectNode hop = arr.addObject().put("ttl", i + 1);
            ArrayNode probes = hop.putArray("probes");
            double rtt = lastRttMs * (i + 1) / hops.size();
            for (String addr : hops.get(i)) {
                ObjectNode p = probes.addObject();
                if (addr == null) {
                    p.putNull("addr").putNull("rtt_ms");
                } else {
                    p.put("addr", addr).put("rtt_ms", rtt);
                }
            }
        }
        return n;
    }

    public static ObjectNode host(String src, String dst, long ts, long wmemMax, long rmemMax) {
        ObjectNode n = envelope("host_snapshot", src, dst, "tcp-default", ts);
        n.putArray("tcp_rmem").add(4096).add(87380).add(rmemMax);
        n.putArray("tcp_wmem").add(4096).add(16384).add(wmemMax);
        n.put("rmem_max", rmemMax).put("wmem_max", wmemMax).put("congestion_control", "cubic");
        return n;
    }

    public static ThroughputSample throughput(ObjectNode n) {
        return Json.convert(n, ThroughputSample.class);
    }

    public static RttSample rtt(ObjectNode n) {
        return Json.convert(n, RttSample.class);
    }

    public static LatencySample latencySample(ObjectNode n) {
        return Json.convert(n, LatencySample.class);
    }

    public static PathSample pathSample(ObjectNode n) {
        return Json.convert(n, PathSample.class);
    }

    public static HostSnapshot hostSnapshot(ObjectNode n) {
        return Json.convert(n, HostSnapshot.class);
    }
}
