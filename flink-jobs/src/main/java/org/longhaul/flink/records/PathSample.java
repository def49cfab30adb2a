package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.BitSet;
import java.util.List;

/**
 * One traceroute run (path_sample.v2, and v1). Each of its hops' TTLs names two fields of the
 * link's one series in InfluxDB (path_hops: hop_007_addr, hop_007_rtt_ms): a run names each TTL
 * once, none beyond its own max_ttl.
 */
public record PathSample(
        @JsonUnwrapped Envelope envelope,
        String runId,
        String tool,
        String target,
        String dstAddr,
        Integer maxTtl,
        Integer queries,
        boolean reached,
        List<PathHop> hops,
        RunError error)
        implements HasSrc, SelfConsistent {

    public static final String SCHEMA = ContractNames.SCHEMA_RAW_PATH;

    @Override
    public String inconsistency() {
        if (hops == null) {
            return null;
        }
        // a bit a TTL (the schema's 1..255), not a set of boxed ones: every trace is checked
        var seen = new BitSet(256);
        for (PathHop h : hops) {
            int ttl = h.ttl();
            if (ttl < 1) {
                return "inconsistent: a hop of ttl " + ttl + ", below 1";
            }
            if (maxTtl != null && ttl > maxTtl) {
                return "inconsistent: a hop of ttl " + ttl + " beyond the run's max_ttl " + maxTtl;
            }
            if (seen.get(ttl)) {
                return "inconsistent: ttl " + ttl + " given twice";
            }
            seen.set(ttl);
        }
        return null;
    }
}
