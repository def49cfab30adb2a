package org.longhaul.flink.functions.detect;

import org.longhaul.flink.records.LatencySample;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.ThroughputSample;

/**
 * Loss and jitter of one run: a UDP throughput summary (protocol udp), a ping (protocol icmp) or a
 * one-way latency run (protocol owd, whose src and dst are the direction the packets went).
 */
public record QualitySample(
        String src,
        String dst,
        String protocol,
        long ts,
        String probeId,
        Double lossPercent,
        Double jitterMs) {

    public String key() {
        return Links.key(src, dst, protocol);
    }

    /** A successful UDP summary, or null. */
    public static QualitySample of(ThroughputSample t) {
        if (!t.succeeded() || !"udp".equals(t.protocol())) {
            return null;
        }
        Double loss =
                t.lossPercent() != null
                        ? t.lossPercent()
                        : t.packets() != null && t.packets() > 0 && t.lostPackets() != null
                                ? Double.valueOf(100.0 * t.lostPackets() / t.packets())
                                : null;
        return new QualitySample(t.src(), t.dst(), "udp", t.ts(), t.probeId(), loss, t.jitterMs());
    }

    /** A one-way latency run that sent packets, or null (a failed run sent none). */
    public static QualitySample of(LatencySample l) {
        if (l.packetsSent() <= 0) {
            return null;
        }
        return new QualitySample(
                l.src(),
                l.dst(),
                LatencySample.PROTOCOL,
                l.ts(),
                l.probeId(),
                l.lossPercent(),
                l.jitterMs());
    }

    /** Whether the run measured one direction only (src to dst). */
    public boolean oneWay() {
        return LatencySample.PROTOCOL.equals(protocol);
    }

    /** What the messages say the measurement was made on: "icmp", or "owd from A to B". */
    public String on() {
        return oneWay() ? "the one-way path from " + src + " to " + dst : protocol;
    }

    /** A ping run that sent echoes (a run that got none back is 100 % loss), or null. */
    public static QualitySample of(RttSample r) {
        if (r.sent() <= 0) {
            return null;
        }
        return new QualitySample(
                r.src(), r.dst(), "icmp", r.ts(), r.probeId(), r.lossPercent(), r.rttMdevMs());
    }
}
