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
 * @param siteQuorum the share of recent sources whose failures make the site unreachable (0.8),
 *     never fewer than siteMinSources: a few sources that get through, or say they do, neither
 *     prevent nor end the site's alarm while most fail. 1 is "every source"
 */
public record ReachParams(
        int confirmRuns, Duration siteRecent, int siteMinSources, double siteQuorum)
        implements Serializable {

    public static ReachParams defaults() {
        return new ReachParams(2, Duration.ofHours(12), 2, 0.8);
    }

    /** How many of {@code recent} sources must fail for the site to be unreachable. */
    public long siteFailing(int recent) {
        return Math.max(siteMinSources, (long) Math.ceil(siteQuorum * recent - 1e-9));
    }
}
