package org.longhaul.flink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.testing.ReplayCli;

/**
 * The incident benchmark's generator and scoring on a small mesh (80 links, 4 faults of each kind)
 * through the whole job: every fault found at its place, no incident on the healthy day. The
 * 1,000-link figures are IncidentBench's (docs/benchmarks.md).
 */
class IncidentBenchTest {
    @Test
    void aSmallMeshsFaultsAreEachFoundAtTheirPlace() {
        IncidentMesh mesh = new IncidentMesh(10, 8, 15 * 60_000L, 1).inject(4);
        assertEquals(
                List.of("hop", "hop", "site", "host"),
                mesh.faults.stream().map(f -> f.location().split(":")[0]).toList());
        ReplayCli r = ReplayCli.run(mesh.lines());
        assertEquals(0, r.exit(), r.stderr().toString());
        IncidentScore s = IncidentScore.of(mesh, r.events());
        assertEquals(List.of(), s.misses());
        assertEquals(1.0, s.accuracy());
        assertEquals(0, s.falseIncidentsHealthyDay());
        assertEquals(0, s.falseIncidentsFaultDay());
        assertTrue(s.pagesPerFault() <= 1.5, "pages per fault " + s.pagesPerFault());
        assertTrue(
                s.delayMedianMs() > 0 && s.delayMaxMs() < 2 * IncidentMesh.HOUR,
                s.delaysMs().toString());
    }
}
