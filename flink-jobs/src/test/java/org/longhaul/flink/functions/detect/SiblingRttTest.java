package org.longhaul.flink.functions.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SiblingRttTest {
    private static final RouteParams P = RouteParams.defaults();

    private static PathModel runs(double... rtts) {
        PathModel m = null;
        for (double rtt : rtts) {
            PathShape run = new PathShape(List.of(Set.of("10.66.35.2")), true, rtt);
            if (m == null) {
                m = PathModel.of(run, 8);
            } else {
                m.absorb(run, 8);
            }
        }
        return m;
    }

    private static SiblingRtt.Verdict judge(PathModel dominant, double... streak) {
        return SiblingRtt.judge(dominant, runs(streak), P);
    }

    @Test
    void shouldJudgeByTheDominantPathsDelayNotItsLeastOrItsQueuedRuns() {
        // a run timed at 160 ms as the route moved back, and three queued ones, on a 231 ms path
        PathModel alt = runs(230.7, 345, 231.4, 230.8, 364, 230.7, 351, 230.7, 160.9);
        assertEquals(230.7, alt.delayMs());
        assertEquals(SiblingRtt.Verdict.CHANGE, judge(alt, 160.8, 161.0, 160.8));
        assertEquals(SiblingRtt.Verdict.SIBLING, judge(alt, 231.0, 352, 230.9));
    }

    /**
     * The e2e story's dst-b (make test, 2026-12-05): every other traceroute of the 161 ms main path
     * waited behind its transfers, so its median of nine was 233 ms, the delay of the 231 ms
     * carrier the route then flipped to: the flip was taken for load balancing, and no route_change
     * came.
     */
    @Test
    void shouldJudgeByTheDominantPathsOwnDelayWhenHalfItsRunsAreQueued() {
        PathModel main = runs(162.4, 256.0, 161.3, 247.6, 160.9, 233.1, 161.1, 275.9, 161.6, 269.8);
        assertEquals(233.1, main.medianRttMs());
        assertEquals(161.3, main.delayMs());
        assertEquals(SiblingRtt.Verdict.CHANGE, judge(main, 232.0, 231.1, 230.7));
        // an ECMP sibling of it is still one, queued runs and all
        assertEquals(SiblingRtt.Verdict.SIBLING, judge(main, 161.5, 250.2, 161.0));
        // and the flip back: the carrier's runs, three of them queued, against the main path's
        PathModel alt = runs(231.5, 231.1, 231.3, 231.3, 307.2, 231.1, 335.3, 231.1, 336.4, 231.3);
        assertEquals(231.1, alt.delayMs());
        assertEquals(
                SiblingRtt.Verdict.CHANGE, judge(alt, 302.1, 161.6, 236.3, 160.7, 162.0, 160.6));
    }

    @Test
    void shouldWaitWhileTheStreaksLeastAndMedianDisagreeAndThenTakeItsMedian() {
        PathModel diamond = runs(191, 191, 191, 191, 191);
        assertEquals(SiblingRtt.Verdict.SIBLING, judge(diamond, 212, 191, 191));
        assertEquals(SiblingRtt.Verdict.UNDECIDED, judge(diamond, 212, 214, 191));
        assertEquals(SiblingRtt.Verdict.SIBLING, judge(diamond, 212, 214, 191, 191));
        assertEquals(SiblingRtt.Verdict.UNDECIDED, judge(diamond, 191, 212, 214, 215, 216));
        assertEquals(SiblingRtt.Verdict.CHANGE, judge(diamond, 191, 212, 214, 215, 216, 212));
        assertEquals(SiblingRtt.Verdict.CHANGE, judge(diamond, 230, 231, 230));
    }

    @Test
    void shouldKeepTheLatestRttsOnlyAndFallBackInAModelRestoredWithoutThem() {
        PathModel m = runs(100, 100, 100, 100, 100, 100, 100, 100, 100, 200, 200, 200, 200, 200);
        assertEquals(PathModel.RECENT_RTTS, m.recentRttMs.length);
        assertEquals(200.0, m.medianRttMs());
        m.recentRttMs = null;
        assertEquals(100.0, m.medianRttMs(), "its least RTT");
        m.rttMinMs = Double.NaN;
        assertEquals(m.rttMs, m.medianRttMs(), "its smoothed RTT");
    }
}
