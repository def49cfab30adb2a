package org.longhaul.flink.functions.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.IncidentLink;
import org.longhaul.flink.records.Location;
import org.longhaul.flink.testing.Harness;
import org.longhaul.flink.testing.Samples;

class IncidentCorrelatorTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final String HOP = "198.18.50.1";

    private static Harness<IncidentInput> harness() throws Exception {
        return Harness.of(
                new IncidentCorrelator(IncidentParams.defaults(), Duration.ofDays(1)),
                in -> IncidentCorrelator.MESH);
    }

    /** a and b reach d1 and d2 over the carrier hop; c reaches both over another. */
    private static void mesh(Harness<IncidentInput> h) throws Exception {
        for (String src : List.of("a", "b", "c")) {
            for (String dst : List.of("d1", "d2")) {
                String carrier = src.equals("c") ? "198.18.60.1" : HOP;
                List<List<String>> hops = new ArrayList<>();
                hops.add(List.of("10.0." + src.charAt(0) % 10 + ".1"));
                hops.add(List.of(carrier));
                hops.add(List.of(dst + "-addr"));
                h.add(
                        IncidentInput.of(
                                Samples.pathSample(Samples.path(src, dst, T0, true, 150, hops))),
                        T0);
                h.add(
                        IncidentInput.of(
                                Samples.throughput(Samples.summary(src, dst, "r0", T0, 9e8))),
                        T0);
            }
        }
    }

    private static IncidentInput collapse(String src, String dst, long ts) {
        return episode(EventKind.THROUGHPUT_COLLAPSE, "critical", src, dst, ts);
    }

    private static IncidentInput recovery(String src, String dst, long ts) {
        return episode(EventKind.THROUGHPUT_RECOVERY, "info", src, dst, ts);
    }

    /** An event of the link's collapse episode, as the collapse detector writes it. */
    private static IncidentInput episode(
            EventKind kind, String severity, String src, String dst, long ts) {
        return IncidentInput.of(
                Event.builder(kind, src, dst, "collapse-detector", ts)
                        .severity(severity)
                        .episode("e-" + src + dst)
                        .message(kind.wire())
                        .build());
    }

    @Test
    void aCarrierHopFaultIsOneIncidentNamingTheHopUntilItsLinksRecover() throws Exception {
        try (Harness<IncidentInput> h = harness()) {
            mesh(h);
            long t = T0 + 600_000;
            h.add(collapse("a", "d1", t), t).add(collapse("b", "d2", t + 5_000), t + 5_000);
            h.add(collapse("a", "d2", t + 9_000), t + 9_000)
                    .add(collapse("b", "d1", t + 12_000), t + 12_000);
            h.watermark(t + 60_000);
            List<Event> opened = h.newEvents();
            assertEquals(1, opened.size(), opened::toString);
            Event e = opened.get(0);
            assertEquals(EventKind.INCIDENT_OPENED.wire(), e.kind());
            assertEquals(Location.hop(HOP, null), e.location());
            assertEquals(4, e.links().size());
            assertEquals(List.of("throughput_collapse"), e.links().get(0).kinds());
            assertEquals("critical", e.severity());
            assertTrue(
                    e.message().startsWith("4 of 4 measured links through hop " + HOP),
                    e.message());
            assertTrue(
                    e.message().contains("2 healthy links from or to the same sites avoid it"),
                    e.message());

            long r = t + 3_600_000;
            h.add(recovery("a", "d1", r), r).add(recovery("b", "d2", r), r).watermark(r + 60_000);
            List<Event> updated = h.newEvents();
            assertEquals(
                    List.of(EventKind.INCIDENT_UPDATED.wire()),
                    updated.stream().map(Event::kind).toList());
            assertEquals(e.episodeId(), updated.get(0).episodeId());
            assertEquals(
                    List.of(
                            new IncidentLink("a", "d2", List.of("throughput_collapse")),
                            new IncidentLink("b", "d1", List.of("throughput_collapse"))),
                    updated.get(0).links());
            assertEquals(
                    "a → d2 (throughput_collapse); b → d1 (throughput_collapse)",
                    updated.get(0).evidence().get("link_list"),
                    "the links as one string, for InfluxDB");

            h.add(recovery("a", "d2", r + 120_000), r + 120_000)
                    .add(recovery("b", "d1", r + 120_000), r + 120_000)
                    .watermark(r + 240_000);
            List<Event> resolved = h.newEvents();
            assertEquals(
                    List.of(EventKind.INCIDENT_RESOLVED.wire()),
                    resolved.stream().map(Event::kind).toList());
            assertEquals(e.episodeId(), resolved.get(0).episodeId());
            assertTrue(
                    resolved.get(0).message().contains("its 2 links have recovered"),
                    resolved.get(0).message());
        }
    }

    @Test
    void aSingleCollapsedLinkMakesNoIncident() throws Exception {
        try (Harness<IncidentInput> h = harness()) {
            mesh(h);
            long t = T0 + 600_000;
            h.add(collapse("a", "d1", t), t).watermark(t + 600_000);
            assertEquals(List.of(), h.newEvents());
            assertEquals(0, h.timers(), "the localisation ran; nothing waits");
        }
    }

    @Test
    void aLinkFarFromTheFaultStaysOutOfIt() throws Exception {
        try (Harness<IncidentInput> h = harness()) {
            mesh(h);
            long t = T0 + 600_000;
            // c's links share no hop with each other but c itself and their sites
            h.add(collapse("c", "d1", t), t).add(collapse("c", "d2", t), t).watermark(t + 60_000);
            List<Event> e = h.newEvents();
            assertEquals(1, e.size(), e::toString);
            assertEquals(Location.host("c"), e.get(0).location());
            assertEquals("c", e.get(0).src());
            assertEquals("*", e.get(0).dst());
        }
    }
}
