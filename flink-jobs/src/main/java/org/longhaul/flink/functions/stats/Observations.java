package org.longhaul.flink.functions.stats;

import java.util.List;
import java.util.Objects;
import org.longhaul.flink.records.HopProbe;
import org.longhaul.flink.records.LatencySample;
import org.longhaul.flink.records.PathHop;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.ThroughputSample;

/**
 * Maps raw samples, each with the raw topic it was read from, to {@link Observation}s (null when a
 * sample contributes nothing):
 *
 * <ul>
 *   <li>throughput intervals (not omitted): one sample of throughput, bytes, retransmits, RTT;
 *   <li>throughput summaries: one run (an error when it failed; not_started is no run); UDP
 *       summaries bring loss and jitter;
 *   <li>ping runs (protocol icmp): loss, jitter = rtt mdev, RTT min/avg/max;
 *   <li>one-way latency runs (protocol owd, one direction): loss, jitter (P95 − median of the run's
 *       delay), and the one-way delay min/mean/max in the delay slots, which {@link ToLinkStats}
 *       writes as owd_* rather than rtt_*;
 *   <li>traceroute runs (protocol path): hop count and the RTT of the destination hop.
 * </ul>
 *
 * A screening burst's records (throughput {@code screens}) contribute nothing: a 2 s run is mostly
 * slow start, and would pull the link's statistics towards it; the collapse detector judges them.
 */
public final class Observations {
    private Observations() {}

    public static Observation of(ThroughputSample t, String sourceTopic) {
        if (t.screening()) {
            return null;
        }
        if (t.countedInterval()) {
            return new Observation(
                    t.src(),
                    t.dst(),
                    t.protocol(),
                    t.ts(),
                    1,
                    0,
                    0,
                    t.bitsPerSecond(),
                    t.bytes(),
                    t.retransmits(),
                    null,
                    null,
                    null,
                    null,
                    t.rttMs(),
                    t.rttMs(),
                    t.rttMs(),
                    null,
                    sourceTopic);
        }
        if (!t.summary() || (t.error() != null && t.error().notStarted())) {
            return null;
        }
        boolean udp = "udp".equals(t.protocol()) && t.error() == null;
        return new Observation(
                t.src(),
                t.dst(),
                t.protocol(),
                t.ts(),
                0,
                1,
                t.failed() ? 1 : 0,
                null,
                null,
                null,
                udp ? t.lostPackets() : null,
                udp ? t.packets() : null,
                udp ? t.lossPercent() : null,
                udp ? t.jitterMs() : null,
                t.minRttMs(),
                null,
                t.maxRttMs(),
                null,
                sourceTopic);
    }

    public static Observation of(RttSample r, String sourceTopic) {
        if (r.error() != null && r.error().notStarted()) {
            return null;
        }
        boolean failed = r.error() != null;
        long lost = Math.max(0, r.sent() - r.received());
        return new Observation(
                r.src(),
                r.dst(),
                "icmp",
                r.ts(),
                1,
                1,
                failed ? 1 : 0,
                null,
                null,
                null,
                r.sent() > 0 ? lost : null,
                r.sent() > 0 ? r.sent() : null,
                r.sent() > 0 ? r.lossPercent() : null,
                r.rttMdevMs(),
                r.rttMinMs(),
                r.rttAvgMs(),
                r.rttMaxMs(),
                null,
                sourceTopic);
    }

    public static Observation of(LatencySample l, String sourceTopic) {
        if (l.error() != null && l.error().notStarted()) {
            return null;
        }
        boolean sent = l.packetsSent() > 0;
        return new Observation(
                l.src(),
                l.dst(),
                LatencySample.PROTOCOL,
                l.ts(),
                1,
                1,
                l.error() != null ? 1 : 0,
                null,
                null,
                null,
                sent ? l.packetsLost() : null,
                sent ? l.packetsSent() : null,
                sent ? l.lossPercent() : null,
                l.jitterMs(),
                l.delayMinMs(),
                l.delayMeanMs(),
                l.delayMaxMs(),
                null,
                sourceTopic);
    }

    public static Observation of(PathSample p, String sourceTopic) {
        if (p.error() != null && p.error().notStarted()) {
            return null;
        }
        List<PathHop> hops = p.hops() == null ? List.of() : p.hops();
        boolean measured = !hops.isEmpty();
        PathHop last = measured ? hops.get(hops.size() - 1) : null;
        List<Double> rtts = last == null || !p.reached() ? List.of() : rttsOf(last);
        return new Observation(
                p.src(),
                p.dst(),
                "path",
                p.ts(),
                measured ? 1 : 0,
                1,
                p.error() != null ? 1 : 0,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                rtts.isEmpty() ? null : rtts.stream().min(Double::compare).get(),
                rtts.isEmpty()
                        ? null
                        : rtts.stream().mapToDouble(Double::doubleValue).average().getAsDouble(),
                rtts.isEmpty() ? null : rtts.stream().max(Double::compare).get(),
                measured ? (double) last.ttl() : null,
                sourceTopic);
    }

    static List<Double> rttsOf(PathHop hop) {
        return hop.probes().stream().map(HopProbe::rttMs).filter(Objects::nonNull).toList();
    }
}
