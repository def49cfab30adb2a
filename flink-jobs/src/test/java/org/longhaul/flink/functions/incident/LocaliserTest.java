package org.longhaul.flink.functions.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Location;

class LocaliserTest {
    private static final IncidentParams P = IncidentParams.defaults();

    /** Two sources, two sites each reached over a carrier hop X and over a second carrier Y. */
    private static Mesh carriers() {
        return new Mesh()
                .link("a", "d1", "10.0.1.1", "198.18.50.1", "10.0.9.1")
                .link("b", "d1", "10.0.2.1", "198.18.50.1", "10.0.9.1")
                .link("a", "d2", "10.0.1.1", "198.18.50.1", "10.0.8.1")
                .link("b", "d2", "10.0.2.1", "198.18.50.1", "10.0.8.1")
                .link("c", "d1", "10.0.3.1", "198.18.60.1", "10.0.9.1")
                .link("c", "d2", "10.0.3.1", "198.18.60.1", "10.0.8.1");
    }

    private static List<Finding> localise(Mesh m) {
        return Localiser.localise(m.links, Mesh.NOW, P, Set.of());
    }

    @Test
    void aSharedCarrierHopExplainsItsLinksWhileLinksAvoidingItAreHealthy() {
        Mesh m = carriers();
        for (String src : List.of("a", "b")) {
            for (String dst : List.of("d1", "d2")) {
                m.degrade(src, dst, "throughput_collapse");
            }
        }
        List<Finding> f = localise(m);
        assertEquals(1, f.size(), f::toString);
        assertEquals(Location.hop("198.18.50.1", 64501L), f.get(0).location());
        assertEquals(List.of("a|d1", "a|d2", "b|d1", "b|d2"), f.get(0).links());
        assertEquals(0, f.get(0).healthy());
        assertEquals(2, f.get(0).healthyAvoiding(), "c → d1 and c → d2 avoid the hop");
    }

    @Test
    void aLostSiteIsTheSiteNotItsLastHop() {
        Mesh m = carriers();
        for (String src : List.of("a", "b", "c")) {
            m.degrade(src, "d1", "unreachable");
        }
        List<Finding> f = localise(m);
        assertEquals(1, f.size(), f::toString);
        assertEquals(Location.site("d1"), f.get(0).location());
        assertEquals(3, f.get(0).links().size());
        assertEquals(1, f.get(0).indistinct(), "10.0.9.1 carries exactly the same links");
    }

    @Test
    void aBrokenSourceHostIsTheHost() {
        Mesh m = carriers().link("a", "d3", "10.0.1.1", "198.18.60.1", "10.0.7.1");
        for (String dst : List.of("d1", "d2", "d3")) {
            m.degrade("a", dst, "high_loss");
        }
        List<Finding> f = localise(m);
        assertEquals(List.of(Location.host("a")), f.stream().map(Finding::location).toList());
    }

    @Test
    void twoIndependentFaultsAreTwoFindings() {
        Mesh m =
                carriers()
                        .link("e", "d5", "10.0.5.1", "203.0.113.7", "10.0.5.9")
                        .link("f", "d5", "10.0.6.1", "203.0.113.7", "10.0.5.9")
                        .link("g", "d6", "10.0.7.1", "203.0.113.7", "10.0.6.9");
        for (String src : List.of("a", "b")) {
            for (String dst : List.of("d1", "d2")) {
                m.degrade(src, dst, "throughput_collapse");
            }
        }
        m.degrade("e", "d5", "unreachable").degrade("f", "d5", "unreachable");
        List<Finding> f = localise(m);
        assertEquals(
                List.of(Location.site("d5"), Location.hop("198.18.50.1", 64501L)),
                f.stream().map(Finding::location).toList(),
                "links down first, then degraded ones");
    }

    @Test
    void aSiteDownIsNotTakenByTheSlowHopItsLinksAlsoPass() {
        Mesh m = carriers();
        for (String src : List.of("a", "b")) {
            m.degrade(src, "d2", "throughput_collapse");
        }
        for (String src : List.of("a", "b", "c")) {
            m.degrade(src, "d1", "unreachable");
        }
        List<Finding> f = localise(m);
        assertEquals(
                List.of("down site:d1", "degraded hop:198.18.50.1"),
                f.stream().map(x -> x.symptom() + " " + x.location().key()).toList());
    }

    /** A traceroute of c → d1 at NOW that reached d1 over hops at ttls, none with an AS number. */
    private static IncidentInput reachedPath(List<String> hops, List<Integer> ttls) {
        return new IncidentInput(
                IncidentInput.Type.PATH,
                "c",
                "d1",
                Mesh.NOW,
                null,
                null,
                null,
                true,
                hops,
                java.util.Collections.nCopies(hops.size(), null),
                ttls);
    }

    @Test
    void aHopThatDidNotAnswerOnceIsStillOnThePath() {
        Mesh m = carriers();
        LinkView v = m.links.get("c|d1");
        v.apply(reachedPath(List.of("10.0.3.1", "10.0.9.1"), List.of(1, 3)));
        assertEquals(List.of("10.0.3.1", "10.0.9.1", "198.18.60.1"), List.of(v.hops));
        v.apply(reachedPath(List.of("10.0.3.1", "198.18.70.1", "10.0.9.1"), List.of(1, 2, 3)));
        assertEquals(
                List.of("10.0.3.1", "198.18.70.1", "10.0.9.1"),
                List.of(v.hops),
                "a new hop there replaces it");
    }

    @Test
    void oneDegradedLinkIsItsOwnAlertNotAnIncident() {
        assertEquals(List.of(), localise(carriers().degrade("a", "d1", "throughput_collapse")));
    }

    /**
     * carriers() with three more healthy links through hop 198.18.50.1, and a → d1 and b → d2
     * degraded: 2 of the 7 measured links through the hop.
     */
    private static Mesh twoOfSevenDegradedThroughAHop() {
        Mesh m = carriers().link("h", "d1", "10.0.4.1", "198.18.50.1", "10.0.9.1");
        m.link("h", "d2", "10.0.4.1", "198.18.50.1", "10.0.8.1");
        m.link("i", "d1", "10.0.4.2", "198.18.50.1", "10.0.9.1");
        return m.degrade("a", "d1", "throughput_collapse")
                .degrade("b", "d2", "throughput_collapse");
    }

    @Test
    void healthyLinksThroughALocationWeighAgainstIt() {
        Mesh m = twoOfSevenDegradedThroughAHop();
        // 2 of 7 measured links through the hop are degraded: below min-share, so nothing is named
        assertEquals(List.of(), localise(m));
    }

    @Test
    void aHealthyRunTooOldIsNoEvidence() {
        Mesh m = twoOfSevenDegradedThroughAHop();
        IncidentParams shortWindow =
                new IncidentParams(true, 2, 0.5, 0.5, java.time.Duration.ofSeconds(10), P.settle());
        // the same mesh as above, but no good run within 10 s: nothing speaks for the hop's other
        // links, and the hop is the one place both degraded links share
        List<Finding> f = Localiser.localise(m.links, Mesh.NOW, shortWindow, Set.of());
        assertEquals(
                List.of(Location.hop("198.18.50.1", 64501L)),
                f.stream().map(Finding::location).toList());
    }

    @Test
    void anOpenIncidentKeepsItsLastLink() {
        Mesh m = carriers().degrade("a", "d1", "throughput_collapse");
        assertEquals(
                List.of(Location.site("d1")),
                Localiser.localise(m.links, Mesh.NOW, P, Set.of("degraded@site:d1")).stream()
                        .map(Finding::location)
                        .toList());
    }
}
