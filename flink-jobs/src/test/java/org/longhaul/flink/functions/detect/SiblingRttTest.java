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
    void shouldJudgeByTheDominantPathsMedianNotItsLeastOrItsQueuedRuns() {
        // a run timed at 160 ms as the route moved back, and two queued ones, on a 231 ms path
        PathModel alt = runs(230.7, 345, 231.4, 230.8, 364, 230.7, 351, 230.7, 160.9);
        assertEquals(230.8, alt.medianRttMs());
        assertEquals(SiblingRtt.Verdict.CHANGE, judge(alt, 160.8, 161.0, 160.8));
        assertEquals(SiblingRtt.Verdict.SIBLING, judge(alt, 231.0, 352, 230.9));
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
