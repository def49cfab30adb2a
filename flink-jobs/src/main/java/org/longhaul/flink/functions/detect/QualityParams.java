package org.longhaul.flink.functions.detect;

import java.io.Serializable;
import java.util.Map;
import org.longhaul.flink.records.ContractNames;

/**
 * Loss and jitter thresholds, a default plus per-link overrides keyed "src|dst".
 *
 * @param lossPercent high loss at or above this percentage (the contract's loss alarm, 2 %: WLCG's)
 * @param jitterMs high jitter at or above this (20 ms; UDP jitter, or ping rtt mdev)
 * @param confirmRuns consecutive runs above (or back below) a threshold that change the state (2)
 * @param recoveryRatio recovery needs values below threshold × this (0.5: hysteresis)
 */
public record QualityParams(
        double lossPercent,
        double jitterMs,
        Map<String, Double> lossOverrides,
        Map<String, Double> jitterOverrides,
        int confirmRuns,
        double recoveryRatio)
        implements Serializable {

    public static QualityParams defaults() {
        return new QualityParams(
                ContractNames.LOSS_ALARM_PERCENT, 20.0, Map.of(), Map.of(), 2, 0.5);
    }

    public double lossThreshold(String link) {
        return lossOverrides.getOrDefault(link, lossPercent);
    }

    public double jitterThreshold(String link) {
        return jitterOverrides.getOrDefault(link, jitterMs);
    }
}
