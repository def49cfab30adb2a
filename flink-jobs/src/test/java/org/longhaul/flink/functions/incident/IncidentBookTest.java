package org.longhaul.flink.functions.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.IncidentLink;
import org.longhaul.flink.records.Location;

class IncidentBookTest {
    private static final Location X = Location.hop("198.18.50.1", 64512L);
    private static final Location D = Location.site("d1");

    private static Finding at(Location l, String... links) {
        return new Finding("down", l, List.of(links), links.length, 0, 0, 0);
    }

    private static OpenIncident open(String id, Location l, String... links) {
        return new OpenIncident(
                id,
                "down",
                l,
                1L,
                java.util.Arrays.stream(links)
                        .map(
                                k ->
                                        new IncidentLink(
                                                k.split("\\|")[0],
                                                k.split("\\|")[1],
                                                List.of("unreachable")))
                        .toList());
    }

    private static List<IncidentChange.Type> types(List<IncidentChange> changes) {
        return changes.stream().map(IncidentChange::type).toList();
    }

    @Test
    void aNewFindingOpensAnIncident() {
        List<IncidentChange> c =
                IncidentBook.reconcile(Map.of(), List.of(at(X, "a|d1", "b|d2")), 5L);
        assertEquals(List.of(IncidentChange.Type.OPENED), types(c));
        assertEquals("incident-hop-198.18.50.1-5", c.get(0).id());
    }

    @Test
    void theSameLinksAtTheSameLocationChangeNothing() {
        assertEquals(
                List.of(),
                IncidentBook.reconcile(
                        Map.of("i1", open("i1", X, "a|d1", "b|d2")),
                        List.of(at(X, "a|d1", "b|d2")),
                        5L));
    }

    @Test
    void aJoiningLinkUpdatesTheIncident() {
        List<IncidentChange> c =
                IncidentBook.reconcile(
                        Map.of("i1", open("i1", X, "a|d1", "b|d2")),
                        List.of(at(X, "a|d1", "b|d2", "c|d3")),
                        5L);
        assertEquals(List.of(IncidentChange.Type.UPDATED), types(c));
        assertEquals("i1", c.get(0).id());
    }

    @Test
    void evidenceMovingTheLocationKeepsTheIncident() {
        List<IncidentChange> c =
                IncidentBook.reconcile(
                        Map.of("i1", open("i1", D, "a|d1", "b|d1")),
                        List.of(at(X, "a|d1", "b|d1", "a|d2", "b|d2")),
                        5L);
        assertEquals(List.of(IncidentChange.Type.UPDATED), types(c));
        assertEquals(D, c.get(0).before().location());
        assertEquals(X, c.get(0).finding().location());
    }

    @Test
    void anIncidentNoFindingExplainsIsResolved() {
        List<IncidentChange> c =
                IncidentBook.reconcile(
                        Map.of("i1", open("i1", X, "a|d1", "b|d2")),
                        List.of(at(D, "e|d1", "f|d1")),
                        5L);
        assertEquals(List.of(IncidentChange.Type.OPENED, IncidentChange.Type.RESOLVED), types(c));
    }
}
