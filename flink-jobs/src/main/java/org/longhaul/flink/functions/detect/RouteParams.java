package org.longhaul.flink.functions.detect;

import java.io.Serializable;

/**
 * Route change versus load balancing (after the path-frequency models of the reference: a dominant
 * path, persistence before alarming; ECMP siblings and `*` blinking are not changes).
 *
 * @param persistRuns consecutive runs off the dominant path that make a route change (3)
 * @param dominantShare the old path must have carried at least this share of recent runs (0.65)
 * @param recentRuns how many recent runs the share is computed over (20, at most 63)
 * @param minRuns runs the old path must have been watched for before a change is reported (5); a
 *     younger model takes the new path's addresses in as siblings, silently
 * @param maxAddrsPerHop addresses remembered per hop; the rarest is forgotten beyond (8)
 * @param balancedRttMs a new path as long as the old, differing only at hops both answered, whose
 *     least and median RTTs are within this many ms of the old one's delay, its lower quartile (or
 *     {@code balancedRttShare} of it, the larger) is a load-balanced sibling of equal length and
 *     delay, not a change (5 ms; {@link SiblingRtt})
 * @param balancedRttShare see balancedRttMs (0.05)
 * @param settleRuns a streak whose least and median RTTs disagree on whether it is a sibling
 *     ({@link SiblingRtt}) is judged by its median once it has this many runs, and waits until then
 *     (6)
 */
public record RouteParams(
        int persistRuns,
        double dominantShare,
        int recentRuns,
        int minRuns,
        int maxAddrsPerHop,
        double balancedRttMs,
        double balancedRttShare,
        int settleRuns)
        implements Serializable {

    public static RouteParams defaults() {
        return new RouteParams(3, 0.65, 20, 5, 8, 5.0, 0.05, 6);
    }

    /** Whether two RTTs (ms) are as close as load balancing keeps them. */
    public boolean balancedRtt(double before, double after) {
        return !Double.isNaN(before)
                && !Double.isNaN(after)
                && Math.abs(after - before) <= Math.max(balancedRttMs, balancedRttShare * before);
    }
}
