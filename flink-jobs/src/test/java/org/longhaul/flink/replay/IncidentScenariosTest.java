package org.longhaul.flink.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.ContractAssert.assertAllValid;
import static org.longhaul.flink.testing.Samples.HOUR;
import static org.longhaul.flink.testing.Samples.MINUTE;
import static org.longhaul.flink.testing.Samples.T0;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.testing.ReplayCli;
import org.longhaul.flink.testing.Samples;
import org.longhaul.flink.testing.Scenario;

/**
 * The incident stories through the whole job (the replay command: the Kafka job's graph on a
 * MiniCluster), from raw runs and traceroutes: the detectors raise per-link alerts, the correlator
 * names one location per fault.
 */
class IncidentScenariosTest {
    private static final String CARRIER = "198.18.50.1";
    private static final String OTHER_CARRIER = "198.18.60.1";
    private static final List<String> SOURCES = List.of("ihep", "slac", "cern");
    private static final List<String> SITES = List.of("lyon", "oxford", "fnal");

    /** ihep and slac reach every site over CARRIER, cern over OTHER_CARRIER. */
    private static List<List<String>> hops(String src, String dst) {
        String carrier = src.equals("cern") ? OTHER_CARRIER : CARRIER;
        return List.of(
                List.of("10.1." + SOURCES.indexOf(src) + ".1"),
                List.of(carrier),
                List.of("10.2." + SITES.indexOf(dst) + ".1"),
                List.of("10.3." + SITES.indexOf(dst) + ".9"));
    }

    /**
     * Hourly runs and traceroutes of every link for a day, then for six hours the links the fault
     * matches run at 20 % (low) or fail (down), then all are well again for six hours.
     */
    private static Scenario story(
            BiPredicate<String, String> low, BiPredicate<String, String> down) {
        Scenario s = new Scenario(7);
        for (int h = 0; h < 36; h++) {
            long t = T0 + h * HOUR;
            boolean fault = h >= 24 && h < 30;
            for (String src : SOURCES) {
                for (String dst : SITES) {
                    long at = t + (SOURCES.indexOf(src) * 3 + SITES.indexOf(dst)) * MINUTE;
                    s.trace(src, dst, at, 150, hops(src, dst));
                    if (fault && down.test(src, dst)) {
                        s.add(
                                Samples.failed(
                                        src, dst, "r-" + src + dst + at, at + 1000, "timeout"));
                    } else {
                        s.tcpRun(src, dst, at + 1000, fault && low.test(src, dst) ? 100 : 500, 0.1);
                    }
                }
            }
        }
        return s;
    }

    private static ReplayCli replay(Scenario s) {
        ReplayCli r = ReplayCli.run(s.lines());
        assertEquals(0, r.exit(), r.stderr().toString());
        assertAllValid(Contract.EVENT, r.events());
        return r;
    }

    private static List<JsonNode> incidents(ReplayCli r) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode e : r.events()) {
            if (e.get("kind").asText().startsWith("incident_")) {
                out.add(e);
            }
        }
        return out;
    }

    private static List<String> links(JsonNode incident) {
        List<String> out = new ArrayList<>();
        incident.get("links")
                .forEach(l -> out.add(l.get("src").asText() + "|" + l.get("dst").asText()));
        return out;
    }

    @Test
    void aDegradedCarrierHopIsOneIncidentNamingItWhileLinksAvoidingItStayHealthy() {
        ReplayCli r = replay(story((src, dst) -> !src.equals("cern"), (src, dst) -> false));

        assertEquals(6, r.events("throughput_collapse").size(), "the six links over the carrier");
        assertEquals(1, r.events("incident_opened").size(), r.stdout().toString());
        List<JsonNode> all = incidents(r);
        String episode = all.get(0).get("episode_id").asText();
        for (JsonNode i : all) {
            assertEquals(episode, i.get("episode_id").asText(), "one incident: " + i);
        }
        // the links collapse a minute apart: the first two (both from ihep) point at ihep, until
        // the
        // third, from slac, moves the incident to the carrier hop
        JsonNode widest =
                all.stream().max((a, b) -> a.get("links").size() - b.get("links").size()).get();
        assertEquals(6, widest.get("links").size(), "every link over the carrier joined it");
        assertEquals("hop", widest.get("location").get("type").asText(), widest.toString());
        assertEquals(CARRIER, widest.get("location").get("name").asText());
        assertTrue(links(widest).stream().noneMatch(l -> l.startsWith("cern|")), widest.toString());
        assertTrue(
                widest.get("message")
                        .asText()
                        .contains("3 healthy links from or to the same sites avoid it"),
                widest.toString());
        JsonNode last = all.get(all.size() - 1);
        assertEquals("incident_resolved", last.get("kind").asText(), r.stdout().toString());
        assertTrue(last.get("message").asText().contains("have recovered"), last.toString());
    }

    @Test
    void aLostSiteIsOneIncidentNamingTheSite() {
        ReplayCli r = replay(story((src, dst) -> false, (src, dst) -> dst.equals("oxford")));

        assertEquals(3, r.events("unreachable").size(), r.stdout().toString());
        List<JsonNode> opened = r.events("incident_opened");
        assertEquals(1, opened.size(), r.stdout().toString());
        JsonNode e = opened.get(0);
        assertEquals("site", e.get("location").get("type").asText());
        assertEquals("oxford", e.get("location").get("name").asText());
        assertEquals("oxford", e.get("dst").asText());
        assertEquals(1, r.events("incident_resolved").size());
    }

    @Test
    void twoFaultsAtOnceAreTwoIncidentsEachAtItsPlace() {
        ReplayCli r =
                replay(
                        story(
                                (src, dst) -> !src.equals("cern") && !dst.equals("fnal"),
                                (src, dst) -> dst.equals("fnal")));

        // per incident, where it was when it explained the most links
        java.util.Map<String, JsonNode> widest = new java.util.TreeMap<>();
        for (JsonNode e : incidents(r)) {
            widest.merge(
                    e.get("episode_id").asText(),
                    e,
                    (a, b) -> b.get("links").size() > a.get("links").size() ? b : a);
        }
        List<String> where = new ArrayList<>();
        widest.values()
                .forEach(
                        e ->
                                where.add(
                                        e.get("location").get("type").asText()
                                                + " "
                                                + e.get("location").get("name").asText()));
        where.sort(null);
        assertEquals(List.of("hop " + CARRIER, "site fnal"), where, incidents(r).toString());
        assertEquals(2, r.events("incident_opened").size(), incidents(r).toString());
        assertEquals(2, r.events("incident_resolved").size());
    }
}
