package org.longhaul.flink.bench;

import java.util.List;
import org.longhaul.flink.testing.ReplayCli;

/**
 * The incident benchmark: a generated mesh (default 40 sources × 25 sites = 1,000 links, a run
 * every 15 min and a traceroute every hour per link, two days) with 12 simultaneous faults of mixed
 * kinds, through the replay command (the job's whole graph), scored by {@link IncidentScore}.
 * Prints one RESULT line of JSON. Run: bash scripts/flink-test-main.sh -Xmx6g
 * org.longhaul.flink.bench.IncidentBench [SOURCES SITES FAULTS SEED]
 */
public final class IncidentBench {
    private IncidentBench() {}

    public static void main(String[] args) {
        int sources = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        int sites = args.length > 1 ? Integer.parseInt(args[1]) : 25;
        int faults = args.length > 2 ? Integer.parseInt(args[2]) : 12;
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 1;
        IncidentMesh mesh = new IncidentMesh(sources, sites, 15 * 60_000L, seed).inject(faults);
        List<String> lines = mesh.lines();
        long t0 = System.nanoTime();
        ReplayCli r = ReplayCli.run(lines);
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (r.exit() != 0) {
            throw new IllegalStateException(String.join("\n", r.stderr()));
        }
        IncidentScore s = IncidentScore.of(mesh, r.events());
        if (System.getenv("INCIDENT_BENCH_EVENTS") != null) { // every incident event, on stderr
            r.events().stream()
                    .filter(e -> e.get("kind").asText().startsWith("incident_"))
                    .forEach(
                            e ->
                                    System.err.println(
                                            e.get("kind").asText()
                                                    + " "
                                                    + e.get("ts").asLong()
                                                    + " "
                                                    + e.get("location")
                                                    + " "
                                                    + e.get("links").size()
                                                    + " "
                                                    + e.get("message").asText()));
            mesh.faults.forEach(f -> System.err.println("fault " + f));
        }
        System.out.printf(
                "RESULT {\"figure\":\"incident_localisation\",\"links\":%d,\"samples\":%d,\"faults\":%d,"
                        + "\"noise_links\":%d,\"top1_accuracy\":%.3f,\"pages_per_fault\":%.2f,"
                        + "\"false_incidents_healthy_day\":%d,\"false_incidents_fault_day\":%d,"
                        + "\"onset_to_incident_median_s\":%d,\"onset_to_incident_max_s\":%d,"
                        + "\"replay_s\":%.1f,\"misses\":%s}%n",
                sources * sites,
                lines.size(),
                s.faults(),
                mesh.noise.size(),
                s.accuracy(),
                s.pagesPerFault(),
                s.falseIncidentsHealthyDay(),
                s.falseIncidentsFaultDay(),
                s.delayMedianMs() / 1000,
                s.delayMaxMs() / 1000,
                seconds,
                org.longhaul.flink.records.Json.write(s.misses()));
    }
}
