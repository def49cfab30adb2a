package org.longhaul.flink.functions.detect;

import org.longhaul.flink.records.HostSnapshot;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.ThroughputSample;

/**
 * One input of the diagnosis: a TCP run summary (its {@link DiagnosisRun}), a host snapshot or a
 * ping of the link.
 */
public record DiagnosisInput(long ts, DiagnosisRun run, HostSnapshot host, RttSample ping) {

    public static DiagnosisInput of(ThroughputSample run) {
        return new DiagnosisInput(run.ts(), DiagnosisRun.of(run), null, null);
    }

    public static DiagnosisInput of(HostSnapshot host) {
        return new DiagnosisInput(host.ts(), null, host, null);
    }

    public static DiagnosisInput of(RttSample ping) {
        return new DiagnosisInput(ping.ts(), null, null, ping);
    }

    public String link() {
        return run != null ? run.link() : host != null ? host.link() : ping.link();
    }

    /** At equal event time, context (host, ping) before the run it explains. */
    public int rank() {
        return host != null ? 0 : ping != null ? 1 : 2;
    }

    public static boolean diagnosable(ThroughputSample t) {
        // a screening burst is mostly slow start: what limits it is not what limits the link
        return t.succeeded() && t.tcp() && !t.screening() && t.bitsPerSecond() > 0;
    }

    public static boolean usable(RttSample r) {
        return r.rttAvgMs() != null && r.received() > 0;
    }
}
