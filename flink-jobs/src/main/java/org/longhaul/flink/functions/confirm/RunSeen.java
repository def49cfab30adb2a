package org.longhaul.flink.functions.confirm;

import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.ThroughputSample;

/**
 * What the confirmation functions read of a throughput run summary: its probe, time, the request it
 * answered (if any), and whether the agent could not start it (not_started) with why.
 */
public record RunSeen(
        String src,
        String dst,
        String probeId,
        long ts,
        String requestId,
        boolean tcp,
        boolean screening,
        boolean notStarted,
        String error) {

    public static RunSeen of(ThroughputSample t) {
        boolean notStarted = t.error() != null && t.error().notStarted();
        return new RunSeen(
                t.src(),
                t.dst(),
                t.probeId(),
                t.ts(),
                t.requestId(),
                t.tcp(),
                t.screening(),
                notStarted,
                t.error() == null ? null : t.error().message());
    }

    public String link() {
        return Links.key(src, dst);
    }
}
