package org.longhaul.flink.functions.confirm;

import java.io.Serializable;
import java.time.Duration;

/**
 * Confirmation probes: when a link becomes suspect the job asks its agent for an extra throughput
 * run now, within budgets per link, per host and for the whole mesh.
 *
 * @param enabled ask at all (false: suspicions are dropped, nothing is sent)
 * @param linkMax requests per link within linkWindow (2: a low run's suspicion and the run that
 *     confirms it, after a cheap signal's)
 * @param linkWindow 30 min
 * @param hostPerHour requests per sending host in any hour (6)
 * @param meshPerHour requests for the whole mesh in any hour (120)
 * @param requestTtl a request not run within this is reported unserved (15 min)
 * @param rttRatio an RTT shift: ping RTT above (1 + this) × its recent median (0.2) ...
 * @param rttMinMs ... and at least this many ms above it (5) ...
 * @param rttConsecutive ... for this many pings in a row (3)
 * @param rttHistory pings kept as the recent level (30; judged after a third of them)
 */
public record ConfirmParams(
        boolean enabled,
        int linkMax,
        Duration linkWindow,
        int hostPerHour,
        int meshPerHour,
        Duration requestTtl,
        double rttRatio,
        double rttMinMs,
        int rttConsecutive,
        int rttHistory)
        implements Serializable {

    public static ConfirmParams defaults() {
        return new ConfirmParams(
                true, 2, Duration.ofMinutes(30), 6, 120, Duration.ofMinutes(15), 0.2, 5.0, 3, 30);
    }
}
