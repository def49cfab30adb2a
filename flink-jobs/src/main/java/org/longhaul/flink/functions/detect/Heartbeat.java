package org.longhaul.flink.functions.detect;

import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.ThroughputSample;

/**
 * One run reported by a probe of a link (a throughput summary, a ping, a traceroute), whatever its
 * outcome.
 */
public record Heartbeat(String src, String dst, String probeId, String kind, long ts) {

    public String key() {
        return Links.key(src, dst, probeId);
    }

    public static Heartbeat of(ThroughputSample t) {
        return t.summary()
                ? new Heartbeat(t.src(), t.dst(), t.probeId(), "throughput", t.ts())
                : null;
    }

    public static Heartbeat of(RttSample r) {
        return new Heartbeat(r.src(), r.dst(), r.probeId(), "rtt", r.ts());
    }

    public static Heartbeat of(PathSample p) {
        return new Heartbeat(p.src(), p.dst(), p.probeId(), "path", p.ts());
    }
}
