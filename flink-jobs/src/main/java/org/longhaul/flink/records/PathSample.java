package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.HashSet;
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
        var seen = new HashSet<Integer>();
        for (PathHop h : hops) {
            if (maxTtl != null && h.ttl() > maxTtl) {
                return "inconsistent: a hop of ttl "
                        + h.ttl()
                        + " beyond the run's max_ttl "
                        + maxTtl;
            }
            if (!seen.add(h.ttl())) {
                return "inconsistent: ttl " + h.ttl() + " given twice";
            }
        }
        return null;
    }
}
