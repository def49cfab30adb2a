package org.longhaul.flink.records;

import java.util.Map;

/**
 * Evidence that a link may have changed, which an extra throughput run would confirm or clear.
 * {@code probeId} is the throughput probe to run, or null for the link's (the one it last ran).
 * {@code byRun}: raised by a full run of {@code probeId} at {@code ts} (not a screening burst, not
 * a cheaper probe), which answers a request for that probe as its summary does.
 */
public record Suspicion(
        String src,
        String dst,
        String probeId,
        long ts,
        String reason,
        String message,
        Map<String, Object> evidence,
        boolean byRun) {

    public static Suspicion of(
            String src,
            String dst,
            String probeId,
            long ts,
            SuspicionReason reason,
            String message,
            Map<String, Object> evidence) {
        return new Suspicion(src, dst, probeId, ts, reason.wire(), message, evidence, false);
    }

    /** A suspicion a full run raised about itself: it answers a request for its probe. */
    public static Suspicion ofRun(
            ThroughputSample run,
            SuspicionReason reason,
            String message,
            Map<String, Object> evidence) {
        return new Suspicion(
                run.src(),
                run.dst(),
                run.probeId(),
                run.ts(),
                reason.wire(),
                message,
                evidence,
                true);
    }

    public String link() {
        return Links.key(src, dst);
    }
}
