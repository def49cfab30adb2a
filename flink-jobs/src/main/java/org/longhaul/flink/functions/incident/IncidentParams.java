package org.longhaul.flink.functions.incident;

import java.io.Serializable;
import java.time.Duration;

/**
 * How the incident correlator localises (see {@link Localiser}).
 *
 * @param enabled whether the job correlates at all (true)
 * @param minLinks degraded links one location must explain before it is an incident (2); a single
 *     degraded link stays its own alert
 * @param minShare the least share of degraded links among the measured links through a location
 *     (degraded and recently healthy) for it to be named (0.5)
 * @param healthyWeight what one recently healthy link through a location costs it, in explained
 *     links (1.0): the tomography's evidence against a location (a location whose healthy links are
 *     as many as its degraded ones explains nothing)
 * @param healthyWindow how recent a link's last good run must be for it to count as healthy (1 h)
 * @param settle how long, in event time, the correlator lets a change gather others before it
 *     localises (30 s): the links behind one fault report within seconds of each other
 */
public record IncidentParams(
        boolean enabled,
        int minLinks,
        double minShare,
        double healthyWeight,
        Duration healthyWindow,
        Duration settle)
        implements Serializable {

    public static IncidentParams defaults() {
        return new IncidentParams(true, 2, 0.5, 1.0, Duration.ofHours(1), Duration.ofSeconds(30));
    }
}
