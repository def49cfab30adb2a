package org.longhaul.flink.functions.confirm;

import org.longhaul.flink.records.LatencySample;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.RttSample;

/**
 * One delay of a link the shift detector judges ({@link DelayShiftDetector}): a ping's mean RTT, or
 * a one-way latency run's median delay (src → dst is then the direction).
 */
public record DelayReading(String src, String dst, long ts, double delayMs) {

    public String link() {
        return Links.key(src, dst);
    }

    /** A ping that measured an RTT, or null. */
    public static DelayReading of(RttSample ping) {
        if (ping.rttAvgMs() == null || ping.rttAvgMs() <= 0) {
            return null;
        }
        return new DelayReading(ping.src(), ping.dst(), ping.ts(), ping.rttAvgMs());
    }

    /**
     * A one-way run that measured a delay its clocks can vouch for, or null: a delay at or below
     * zero, or with a clock error as large as the smallest shift judged ({@code minShiftMs}), could
     * move by the clocks alone.
     */
    public static DelayReading of(LatencySample run, double minShiftMs) {
        Double d = run.delayMedianMs();
        if (d == null || d <= 0) {
            return null;
        }
        if (run.clockErrorMs() != null && run.clockErrorMs() >= minShiftMs) {
            return null;
        }
        return new DelayReading(run.src(), run.dst(), run.ts(), d);
    }
}
