package org.longhaul.flink.functions.detect;

import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.ThroughputSample;

/**
 * What the stall detector needs of one counted interval of a run: 8 fields instead of the 39 of a
 * throughput sample, since every interval of every run crosses the network to its key.
 */
public record RunInterval(
        String src,
        String dst,
        String protocol,
        String runId,
        long ts,
        double startS,
        double endS,
        double bitsPerSecond) {

    /** "src|dst|run_id". */
    public String key() {
        return Links.key(src, dst, runId);
    }

    /** A counted interval (not omitted, with a rate) with its bounds in the run, or null. */
    public static RunInterval of(ThroughputSample t) {
        if (!t.countedInterval() || t.startS() == null || t.endS() == null) {
            return null;
        }
        return new RunInterval(
                t.src(),
                t.dst(),
                t.protocol(),
                t.runId(),
                t.ts(),
                t.startS(),
                t.endS(),
                t.bitsPerSecond());
    }
}
