package org.longhaul.flink.functions.detect;

import java.io.Serializable;
import java.time.Duration;

/**
 * Reachability from run summaries. Failures that count: connection_refused, no_route,
 * host_unreachable, timeout (not not_started, server_busy, dns, tool errors).
 *
 * @param confirmRuns consecutive failed runs that make a link unreachable (2)
 * @param siteRecent a source counts for its destination's site verdict while its last run is this
 *     recent (12 h)
 * @param siteMinSources sources needed, all failing, for site_unreachable (2, as WLCG's "all
 *     sources" rule)
 */
public record ReachParams(int confirmRuns, Duration siteRecent, int siteMinSources)
        implements Serializable {

    public static ReachParams defaults() {
        return new ReachParams(2, Duration.ofHours(12), 2);
    }
}
