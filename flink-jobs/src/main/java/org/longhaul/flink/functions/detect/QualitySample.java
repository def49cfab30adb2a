package org.longhaul.flink.functions.detect;

import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.ThroughputSample;

/**
 * Loss and jitter of one run: a UDP throughput summary (protocol udp) or a ping (protocol icmp).
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

    /** A ping run that sent echoes (a run that got none back is 100 % loss), or null. */
    public static QualitySample of(RttSample r) {
        if (r.sent() <= 0) {
            return null;
        }
        return new QualitySample(
                r.src(), r.dst(), "icmp", r.ts(), r.probeId(), r.lossPercent(), r.rttMdevMs());
    }
}
