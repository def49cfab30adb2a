package org.longhaul.flink.functions.detect;

/**
 * Whether the delay of a streak of runs off a link's dominant path is the dominant path's own (an
 * ECMP sibling) or another (a route change), from RTTs alone. The dominant path's delay is the
 * lower quartile of its recent runs ({@link PathModel#delayMs()}): runs queued behind a transfer
 * (the testbed has timed from one traceroute in ten to every other one 30-115 ms late) or one timed
 * on the way back during a flip (CI's dst-b: a run through the 230 ms carrier timed at 160 ms as
 * the route moved back) move it not. A streak is judged by both its least RTT (queues only add to
 * it) and its median (a run timed on the old path as the route moved does not move it): when they
 * agree, that is the verdict; when they do not, the streak's median decides once it has {@link
 * RouteParams#settleRuns()} runs, and until then there is no verdict.
 */
public final class SiblingRtt {
    private SiblingRtt() {}

    /** The verdict on a streak's delay. */
    public enum Verdict {
        SIBLING,
        CHANGE,
        UNDECIDED
    }

    public static Verdict judge(PathModel dominant, PathModel streak, RouteParams p) {
        double own = dominant.delayMs();
        boolean leastAlike = p.balancedRtt(own, streak.rttMinMs);
        boolean medianAlike = p.balancedRtt(own, streak.medianRttMs());
        if (leastAlike == medianAlike || streak.runs >= p.settleRuns()) {
            return medianAlike ? Verdict.SIBLING : Verdict.CHANGE;
        }
        return Verdict.UNDECIDED;
    }
}
