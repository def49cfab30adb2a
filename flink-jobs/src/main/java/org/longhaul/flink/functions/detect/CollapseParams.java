package org.longhaul.flink.functions.detect;

import java.io.Serializable;
import java.time.Duration;

/**
 * Throughput collapse against a link's own baseline (after SLAC IEPM-BW: a point below mean − 2σ
 * enters the trigger buffer; alarm when the trigger mean is ≥ 33 % below the history).
 *
 * @param history successful runs kept as the baseline history (48)
 * @param minHistory runs needed before anything is judged (10)
 * @param k a low run is below median − k·σ, σ = 1.4826·MAD (2)
 * @param drop ...and at least this fraction below the median (0.33)
 * @param confirmRuns consecutive low runs that raise the alarm (2: within two probe intervals)
 * @param catastrophicDrop a single run this far below alarms at once (0.90)
 * @param recoveryRuns consecutive runs within drop/2 of the baseline that end the episode (2)
 * @param catastrophicWait with confirmation probes on, how long a catastrophic run waits for the
 *     run it asks for before it pages alone (10 min): one bad run does not page when the next is
 *     fine
 */
public record CollapseParams(
        int history,
        int minHistory,
        double k,
        double drop,
        int confirmRuns,
        double catastrophicDrop,
        int recoveryRuns,
        Duration catastrophicWait)
        implements Serializable {

    public static CollapseParams defaults() {
        return new CollapseParams(48, 10, 2.0, 0.33, 2, 0.90, 2, Duration.ofMinutes(10));
    }

    /** These parameters with a catastrophic run paging at once (confirmation probes off). */
    public CollapseParams pagingAtOnce() {
        return new CollapseParams(
                history,
                minHistory,
                k,
                drop,
                confirmRuns,
                catastrophicDrop,
                recoveryRuns,
                Duration.ZERO);
    }
}
