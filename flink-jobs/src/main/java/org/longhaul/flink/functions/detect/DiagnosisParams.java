package org.longhaul.flink.functions.detect;

import java.io.Serializable;
import java.util.Map;

/**
 * What limits a link's TCP throughput (seeds 001–003; Mathis et al.).
 *
 * @param windowTolerance window-limited when throughput is within ±this of window/RTT (0.25)
 * @param capacityRatio at capacity when throughput ≥ this × the best of the recent runs (0.8)
 * @param minRuns runs of the probe before "capacity" can be concluded (5)
 * @param history recent runs whose best is the capacity reference (48)
 * @param mssBytes MSS when the host snapshot has no MTU (1460)
 * @param mathisC Mathis constant C (1.22)
 * @param lossTolerance loss-limited when throughput ≤ (1 + this) × the Mathis bound (0.5)
 * @param capacityBps every link's capacity in bit/s, for the window that would fill it; 0 (the
 *     default): not configured, each link's best run stands for it ({@link LinkCapacity})
 * @param capacityOverrides per link "src|dst" capacity in bit/s
 * @param confirmRuns consecutive runs with another cause needed to leave a limiting cause (2)
 */
public record DiagnosisParams(
        double windowTolerance,
        double capacityRatio,
        int minRuns,
        int history,
        int mssBytes,
        double mathisC,
        double lossTolerance,
        double capacityBps,
        Map<String, Double> capacityOverrides,
        int confirmRuns)
        implements Serializable {

    public static DiagnosisParams defaults() {
        return new DiagnosisParams(0.25, 0.8, 5, 48, 1460, 1.22, 0.5, 0, Map.of(), 2);
    }

    /** The link's configured capacity in bit/s, or null when none is. */
    public Double capacity(String link) {
        Double c = capacityOverrides.get(link);
        if (c != null && c > 0) {
            return c;
        }
        return capacityBps > 0 ? capacityBps : null;
    }
}
