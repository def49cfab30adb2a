package org.longhaul.flink.functions.detect;

import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.ThroughputSample;

/**
 * What the diagnosis reads of a TCP run summary: 12 of its 40 fields. A run waits in the detector's
 * state until the watermark passes it (the out-of-orderness, 2 min by default), so the slimmer
 * record is both less state to snapshot and less to serialise across the shuffle.
 */
public record DiagnosisRun(
        String src,
        String dst,
        String probeId,
        long ts,
        double bitsPerSecond,
        Integer streams,
        Double rttMs,
        Long windowBytes,
        boolean reverse,
        Long retransmits,
        Long bytes,
        Long sndWndBytes) {

    public static DiagnosisRun of(ThroughputSample t) {
        return new DiagnosisRun(
                t.src(),
                t.dst(),
                t.probeId(),
                t.ts(),
                t.bitsPerSecond(),
                t.streams(),
                t.rttMs(),
                t.windowBytes(),
                t.reverse(),
                t.retransmits(),
                t.bytes(),
                t.sndWndBytes());
    }

    public String link() {
        return Links.key(src, dst);
    }
}
