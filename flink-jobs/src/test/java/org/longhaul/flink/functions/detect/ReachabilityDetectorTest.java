package org.longhaul.flink.functions.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.longhaul.flink.testing.Samples.HOUR;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.testing.Harness;
import org.longhaul.flink.testing.Samples;

class ReachabilityDetectorTest {
    private static final Duration TTL = Duration.ofDays(7);
    private static final String LALL = "lallhcone02.in2p3.fr";

    private static List<Event> feed(Harness<ThroughputSample> h, ThroughputSample s)
            throws Exception {
        h.add(s, s.ts());
        return h.newEvents();
    }

    private static ThroughputSample refused(String src, long ts) {
        return Samples.throughput(Samples.failed(src, LALL, "r" + ts, ts, "connection_refused"));
    }

    private static ThroughputSample ok(String src, long ts) {
        return Samples.throughput(Samples.summary(src, LALL, "r" + ts, ts, 2.8e6));
    }

    @Test
    void shouldReportAnUnreachableLinkOnceAndItsRecovery() throws Exception {
        try (var h =
                Harness.of(
                        new ReachabilityDetector(ReachParams.defaults(), TTL),
                        ThroughputSample::link)) {
            assertEquals(List.of(), feed(h, refused(SRC, T0)));
            List<Event> down = feed(h, refused(SRC, T0 + HOUR));
            assertEquals(1, down.size());
            assertEquals("unreachable", down.get(0).kind());
            assertEquals("critical", down.get(0).severity());
            assertEquals("connection_refused", down.get(0).evidence().get("error_class"));
            assertEquals(List.of(), feed(h, refused(SRC, T0 + 2 * HOUR)));
            List<Event> up = feed(h, ok(SRC, T0 + 3 * HOUR));
            assertEquals("reachable", up.get(0).kind());
            assertEquals(down.get(0).episodeId(), up.get(0).episodeId());
            assertEquals(3L, up.get(0).evidence().get("failed_runs"));
            assertEquals(1, h.timers());
            h.watermark(T0 + 3 * HOUR + TTL.toMillis());
            assertEquals(0, h.timers());
            assertEquals(0, h.stateEntries());
        }
    }

    @Test
    void shouldNotCountSkippedOrBusyRunsAndForgetASingleFailure() throws Exception {
        try (var h =
                Harness.of(
                        new ReachabilityDetector(ReachParams.defaults(), TTL),
                        ThroughputSample::link)) {
            feed(h, refused(SRC, T0));
            feed(h, Samples.throughput(Samples.failed(SRC, LALL, "s", T0 + 1, "not_started")));
            feed(h, Samples.throughput(Samples.failed(SRC, LALL, "b", T0 + 2, "server_busy")));
            feed(h, ok(SRC, T0 + HOUR));
            feed(h, refused(SRC, T0 + 2 * HOUR));
            assertEquals(List.of(), h.events());
        }
    }

    @Test
    void shouldReportASiteOnlyWhenEveryRecentSourceFails() throws Exception {
        ReachParams p = ReachParams.defaults();
        try (var h = Harness.of(new SiteReachabilityDetector(p, TTL), ThroughputSample::dst)) {
            feed(h, ok("old-source", T0));
            assertEquals(
                    List.of(),
                    feed(h, refused("a", T0 + 13 * HOUR)),
                    "one recent source is not a site");
            List<Event> down = feed(h, refused("b", T0 + 13 * HOUR + 1));
            assertEquals(1, down.size(), "a and b fail, old-source is stale: " + down);
            Event site = down.get(0);
            assertEquals("site_unreachable", site.kind());
            assertEquals("*", site.src());
            assertEquals(LALL, site.dst());
            assertEquals(2L, site.evidence().get("sources"));
            assertEquals(List.of(), feed(h, refused("c", T0 + 14 * HOUR)), "still down: once");
            List<Event> up = feed(h, ok("b", T0 + 15 * HOUR));
            assertEquals("site_reachable", up.get(0).kind());
            assertEquals(site.episodeId(), up.get(0).episodeId());
            h.watermark(T0 + 15 * HOUR + TTL.toMillis());
            assertEquals(0, h.stateEntries());
            assertEquals(0, h.timers());
        }
    }

    @Test
    void oneSourceThatGetsThroughNeitherPreventsNorEndsTheAlarmOfMostThatFail() throws Exception {
        ReachParams p = ReachParams.defaults(); // 0.8 of the recent sources, at least 2
        try (var h = Harness.of(new SiteReachabilityDetector(p, TTL), ThroughputSample::dst)) {
            // a site's own run to the destination, honest or in a stolen name, gets through
            feed(h, ok("liar", T0));
            for (int i = 0; i < 3; i++) {
                assertEquals(List.of(), feed(h, refused("s" + i, T0 + i + 1)), "3 of 4 fail");
            }
            List<Event> down = feed(h, refused("s3", T0 + 10));
            assertEquals(1, down.size(), "4 of 5 fail: the quorum, the liar is outvoted");
            assertEquals("site_unreachable", down.get(0).kind());
            assertEquals(5L, down.get(0).evidence().get("sources"));
            assertEquals(4L, down.get(0).evidence().get("failing"));
            assertEquals(
                    List.of(), feed(h, ok("liar", T0 + 20)), "the liar again: still 4 of 5 fail");
            List<Event> up = feed(h, ok("s0", T0 + 30));
            assertEquals("site_reachable", up.get(0).kind(), "3 of 5 fail: under the quorum");
            assertEquals(down.get(0).episodeId(), up.get(0).episodeId());
        }
    }

    @Test
    void theQuorumIsNeverFewerThanTheMinimumAndOneIsEverySource() {
        var quorum = ReachParams.defaults();
        assertEquals(2, quorum.siteFailing(2), "two sources: both");
        assertEquals(3, quorum.siteFailing(3));
        assertEquals(24, quorum.siteFailing(30), "a WLCG mesh of 30: 24");
        var every = new ReachParams(2, Duration.ofHours(12), 2, 1.0);
        assertEquals(30, every.siteFailing(30));
        assertEquals(2, every.siteFailing(1), "one source is never a site");
    }
}
