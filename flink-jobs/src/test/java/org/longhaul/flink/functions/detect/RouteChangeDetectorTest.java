package org.longhaul.flink.functions.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.MINUTE;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.ChangedHop;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.testing.Harness;
import org.longhaul.flink.testing.Samples;

class RouteChangeDetectorTest {
    private static final Duration TTL = Duration.ofDays(7);
    private static final List<String> STARS = Arrays.asList(null, null, null);
    private static final List<String> DEST =
            List.of("193.48.99.78", "193.48.99.78", "193.48.99.78");
    private long t = T0;

    private static Harness<PathSample> harness() throws Exception {
        return Harness.of(new RouteChangeDetector(RouteParams.defaults(), TTL), PathSample::link);
    }

    private List<Event> trace(Harness<PathSample> h, double rtt, List<List<String>> hops)
            throws Exception {
        t += 10 * MINUTE;
        h.add(Samples.pathSample(Samples.path(SRC, DST, t, true, rtt, hops)), t);
        return h.newEvents();
    }

    private static List<List<String>> via(List<String> hop2, List<String> hop3) {
        return List.of(List.of("202.122.32.1", "202.122.32.1", "202.122.32.1"), hop2, hop3, DEST);
    }

    @Test
    void shouldReportOneRouteChangeNamingTheChangedHop() throws Exception {
        try (var h = harness()) {
            for (int i = 0; i < 8; i++) {
                trace(
                        h,
                        283,
                        via(STARS, List.of("159.226.254.1", "159.226.254.1", "159.226.254.1")));
            }
            List<String> geant = List.of("62.40.112.9", "62.40.112.9", "62.40.112.9");
            assertEquals(List.of(), trace(h, 181, via(STARS, geant)));
            assertEquals(List.of(), trace(h, 181, via(STARS, geant)));
            List<Event> change = trace(h, 181, via(STARS, geant));
            assertEquals(1, change.size());
            Event e = change.get(0);
            assertEquals("route_change", e.kind());
            assertEquals(
                    List.of(new ChangedHop(3, "159.226.254.1", "62.40.112.9")), e.changedHops());
            assertEquals(
                    List.of("202.122.32.1", "*", "159.226.254.1", "193.48.99.78"), e.pathBefore());
            assertEquals(
                    List.of("202.122.32.1", "*", "62.40.112.9", "193.48.99.78"), e.pathAfter());
            assertEquals(283.0, e.evidence().get("rtt_before_ms"));
            assertEquals(181.0, e.evidence().get("rtt_after_ms"));
            assertEquals(3L, e.evidence().get("runs_on_new_path"));
            for (int i = 0; i < 10; i++) {
                assertEquals(
                        List.of(),
                        trace(h, 181, via(STARS, geant)),
                        "the new path is now dominant");
            }
        }
    }

    @Test
    void shouldTreatLoadBalancingAndBlinkingHopsAsOnePath() throws Exception {
        try (var h = harness()) {
            List<String> a = List.of("159.226.254.1", "159.226.254.1", "159.226.254.1");
            List<String> b = List.of("159.226.254.5", "159.226.254.5", "159.226.254.5");
            List<String> mixed = List.of("159.226.254.1", "159.226.254.5", "159.226.254.1");
            List<String> hop2 = List.of("192.70.69.1", "192.70.69.1", "192.70.69.1");
            for (int i = 0; i < 40; i++) {
                List<String> third =
                        switch (i % 5) {
                            case 0, 2 -> a;
                            case 1, 3 -> b;
                            default -> mixed;
                        };
                List<String> second =
                        i % 3 == 0
                                ? STARS
                                : i % 3 == 1 ? hop2 : Arrays.asList("192.70.69.1", null, null);
                trace(h, 283 + (i % 4), via(second, third));
            }
            assertEquals(List.of(), h.events());
        }
    }

    @Test
    void shouldIgnoreADetourShorterThanThePersistence() throws Exception {
        try (var h = harness()) {
            List<String> a = List.of("159.226.254.1");
            for (int i = 0; i < 10; i++) {
                trace(h, 283, via(STARS, a));
                if (i == 5) {
                    trace(h, 181, via(STARS, List.of("62.40.112.9")));
                    trace(h, 181, via(STARS, List.of("62.40.112.9")));
                }
            }
            assertEquals(List.of(), h.events());
        }
    }

    @Test
    void shouldKeepTheSiblingsOfAStreakWhileStillLearning() throws Exception {
        // the e2e story's dst-c (tests/e2e, ECMP at hop 3: cc answers from 10.66.32.2 or
        // 10.66.33.2 by the edge's hash): three runs on one sibling, three on the other before
        // the path is learnt, eight more on the second, then three on the first again: all ECMP
        List<String> one = List.of("10.66.33.2");
        List<String> two = List.of("10.66.32.2");
        try (var h = harness()) {
            for (int i = 0; i < 3; i++) {
                trace(h, 191, via(STARS, one));
            }
            for (int i = 0; i < 11; i++) {
                trace(h, 191, via(STARS, two));
            }
            for (int i = 0; i < 3; i++) {
                trace(h, 191, via(STARS, one));
            }
            assertEquals(List.of(), h.events());
        }
    }

    @Test
    void shouldTakeASiblingOfEqualLengthAndDelayForLoadBalancingNotAChange() throws Exception {
        // the e2e story's s2 → dst-c: eight runs through one router at hop 3 (its other ECMP
        // sibling unseen), then three through the other at the same 191 ms: a diamond, no change
        List<String> one = List.of("10.66.32.2");
        List<String> two = List.of("10.66.33.2");
        try (var h = harness()) {
            for (int i = 0; i < 8; i++) {
                trace(h, 191, via(STARS, one));
            }
            for (int i = 0; i < 3; i++) {
                trace(h, 192, via(STARS, two));
            }
            for (int i = 0; i < 6; i++) {
                trace(h, 191, via(STARS, i % 2 == 0 ? one : two));
            }
            assertEquals(List.of(), h.events());
            // the same change with the delay of another carrier (+40 ms) is one, even when its
            // first runs are queued as long as the old path's delay (the least RTT counts)
            trace(h, 301, via(STARS, List.of("10.66.36.2")));
            trace(h, 231, via(STARS, List.of("10.66.36.2")));
            trace(h, 231, via(STARS, List.of("10.66.36.2")));
            assertEquals(1, h.events().size());
            // and back after a while, its last runs and the first runs back queued (the e2e
            // story's flip back: 342 and 350 ms on a 231 ms path, then 301 and 217 ms on a 160 ms
            // one): by their mean the two paths look alike, by their least RTT they do not
            for (double rtt : new double[] {231, 342, 231, 351, 232}) {
                trace(h, rtt, via(STARS, List.of("10.66.36.2")));
            }
            trace(h, 301, via(STARS, one));
            trace(h, 191, via(STARS, one));
            trace(h, 250, via(STARS, one));
            assertEquals(2, h.events().size(), "back to the 191 ms path");
        }
    }

    @Test
    void shouldTakeAQueuedSiblingForLoadBalancingNotAChange() throws Exception {
        // the e2e story's s2 → dst-c in CI: five runs through one branch of the diamond, then three
        // through the other whose first waited behind a throughput test (a mean of 201 ms against
        // 191 ms); then the same with two of three queued, which waits a run for its delay
        List<List<String>> one = via(List.of("10.66.31.2"), List.of("10.66.33.2"));
        List<List<String>> two = via(List.of("10.66.30.2"), List.of("10.66.32.2"));
        try (var h = harness()) {
            for (int i = 0; i < 5; i++) {
                trace(h, 191, one);
            }
            for (double rtt : new double[] {212, 191, 191}) {
                trace(h, rtt, two);
            }
            for (int i = 0; i < 5; i++) {
                trace(h, 191, one);
            }
            List<List<String>> three = via(List.of("10.66.39.2"), List.of("10.66.38.2"));
            for (double rtt : new double[] {212, 214, 191, 191}) {
                trace(h, rtt, three);
            }
            trace(h, 191, one);
            trace(h, 191, three);
            assertEquals(List.of(), h.events());
        }
    }

    @Test
    void shouldReportTheFlipBackAfterARunTimedOnTheWayBack() throws Exception {
        // CI's dst-b: 160 ms, a flip to the 230 ms carrier (runs queued to 345-364 ms), and as it
        // flipped back one run through the 230 ms carrier's router timed at 160 ms
        List<List<String>> main = via(List.of("10.66.20.2"), List.of("10.66.22.2"));
        List<List<String>> alt = via(List.of("10.66.21.2"), List.of("10.66.23.2"));
        try (var h = harness()) {
            for (double rtt : new double[] {161, 162, 161, 160, 196, 161, 160, 161, 160, 273}) {
                trace(h, rtt, main);
            }
            for (double rtt : new double[] {230.7, 345, 231.4}) {
                trace(h, rtt, alt);
            }
            assertEquals(1, h.events().size(), "the flip");
            Event flip = h.events().get(0);
            // each path's delay: the lower quartile of its runs, queued ones left out
            assertEquals(160.0, flip.evidence().get("rtt_before_ms"));
            assertEquals(230.7, flip.evidence().get("rtt_after_ms"));
            for (double rtt : new double[] {230.8, 230.8, 230.8, 364, 230.7, 351, 230.7, 160.9}) {
                trace(h, rtt, alt);
            }
            trace(h, 160.8, main);
            trace(h, 161.0, main);
            List<Event> back = trace(h, 160.8, main);
            assertEquals(1, back.size(), "the flip back");
            assertEquals(
                    List.of("10.66.20.2", "10.66.22.2"), back.get(0).pathAfter().subList(1, 3));
        }
    }

    @Test
    void shouldReportARouteChangeWhoseFirstRunWasTimedOnTheOldPathOnceItsDelayIsClear()
            throws Exception {
        // a move onto a 165 ms path from 140 ms whose first run is timed at 140 ms: by its least
        // RTT a sibling, by its median not, so it waits; by six runs its median decides
        List<List<String>> moved = via(List.of("62.40.9.9"), List.of("62.40.8.8"));
        try (var h = harness()) {
            for (int i = 0; i < 14; i++) {
                trace(h, 140, via(List.of("62.40.1.1"), List.of("62.40.2.2")));
            }
            for (double rtt : new double[] {140, 165, 166, 165, 165}) {
                assertEquals(List.of(), trace(h, rtt, moved));
            }
            List<Event> change = trace(h, 165, moved);
            assertEquals(1, change.size(), "the route change, at the sixth run");
            assertEquals(6L, change.get(0).evidence().get("runs_on_new_path"));
            assertEquals(165.0, change.get(0).evidence().get("rtt_after_ms"));
        }
    }

    @Test
    void shouldReportARouteChangeOntoALongerPathAtItsThirdRun() throws Exception {
        // the integration mesh's fnal: the route moves at hops 2-3 onto a 165 ms path from 140 ms
        try (var h = harness()) {
            for (int i = 0; i < 14; i++) {
                trace(h, 140, via(List.of("62.40.1.1"), List.of("62.40.2.2")));
            }
            trace(h, 165, via(List.of("62.40.9.9"), List.of("62.40.8.8")));
            trace(h, 166, via(List.of("62.40.9.9"), List.of("62.40.8.8")));
            List<Event> change = trace(h, 165, via(List.of("62.40.9.9"), List.of("62.40.8.8")));
            assertEquals(1, change.size(), "the route change");
            assertEquals(
                    List.of(
                            new ChangedHop(2, "62.40.1.1", "62.40.9.9"),
                            new ChangedHop(3, "62.40.2.2", "62.40.8.8")),
                    change.get(0).changedHops());
        }
    }

    @Test
    void shouldForgetTheLinkAfterTheTtl() throws Exception {
        try (var h = harness()) {
            trace(h, 283, via(STARS, List.of("159.226.254.1")));
            assertEquals(1, h.timers());
            h.watermark(t + TTL.toMillis());
            assertEquals(0, h.timers());
            assertEquals(0, h.stateEntries());
        }
    }
}
