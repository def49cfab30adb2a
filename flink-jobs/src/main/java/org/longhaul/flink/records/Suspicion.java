package org.longhaul.flink.records;

import java.util.Map;

/**
 * Evidence that a link may have changed, which an extra throughput run would confirm or clear.
 * {@code probeId} is the throughput probe to run, or null for the link's (the one it last ran).
 */
public record Suspicion(
        String src,
        String dst,
        String probeId,
        long ts,
        String reason,
        String message,
        Map<String, Object> evidence) {

    public static Suspicion of(
            String src,
            String dst,
            String probeId,
            long ts,
            SuspicionReason reason,
            String message,
            Map<String, Object> evidence) {
        return new Suspicion(src, dst, probeId, ts, reason.wire(), message, evidence);
    }

    public String link() {
        return Links.key(src, dst);
    }
}
