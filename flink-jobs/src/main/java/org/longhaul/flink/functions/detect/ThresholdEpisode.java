package org.longhaul.flink.functions.detect;

/**
 * One metric's alarm state with confirmation and hysteresis: raise after N consecutive values at or
 * above the threshold, clear after N consecutive values below threshold × recovery ratio. A Flink
 * POJO.
 */
public final class ThresholdEpisode {
    public int above;
    public int below;
    public boolean active;
    public long since;
    public double peak;
    public String episodeId;

    /** Feeds one value; returns +1 when the alarm is raised, -1 when it clears, 0 otherwise. */
    public int feed(double value, double threshold, double recoveryRatio, int confirm, long ts) {
        if (!active) {
            above = value >= threshold ? above + 1 : 0;
            if (above == 1) {
                since = ts;
                peak = value;
            }
            peak = Math.max(peak, value);
            if (above >= confirm) {
                active = true;
                below = 0;
                return 1;
            }
            return 0;
        }
        peak = Math.max(peak, value);
        below = value < threshold * recoveryRatio ? below + 1 : 0;
        if (below >= confirm) {
            active = false;
            above = 0;
            return -1;
        }
        return 0;
    }

    public boolean idle() {
        return !active && above == 0;
    }
}
