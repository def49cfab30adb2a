package org.longhaul.flink.records;

import java.util.List;

/** One traceroute run (path_sample.v2, and v1). */
public record PathSample(
        String schema,
        int version,
        String src,
        String dst,
        String probeId,
        long ts,
        String runId,
        String tool,
        String target,
        String dstAddr,
        Integer maxTtl,
        Integer queries,
        boolean reached,
        List<PathHop> hops,
        RunError error)
        implements HasSrc {

    public static final String SCHEMA = ContractNames.SCHEMA_RAW_PATH;

    public String link() {
        return Links.key(src, dst);
    }
}
