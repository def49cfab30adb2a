package org.longhaul.flink.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How the job's incidents compare with the faults injected into an {@link IncidentMesh}: per fault,
 * whether the incident that took most of its links was at its location (top-1), the pages it cost
 * (its incidents, plus the alerts of its links no incident explained within Alertmanager's
 * group_wait of the alert, which are mailed before a member alert can mute them) and the event time
 * from onset to an incident at the right place; and the incidents no fault explains.
 */
public record IncidentScore(
        int faults,
        int correct,
        double pagesPerFault,
        int falseIncidentsHealthyDay,
        int falseIncidentsFaultDay,
        List<Long> delaysMs,
        List<String> misses) {

    public double accuracy() {
        return faults == 0 ? 0 : correct / (double) faults;
    }

    public long delayMedianMs() {
        return percentile(0.5);
    }

    public long delayMaxMs() {
        return percentile(1.0);
    }

    private long percentile(double q) {
        if (delaysMs.isEmpty()) {
            return -1;
        }
        List<Long> d = new ArrayList<>(delaysMs);
        d.sort(null);
        return d.get((int) Math.min(d.size() - 1, Math.ceil(q * d.size()) - 1));
    }

    /**
     * An incident over its life: every link it ever explained, its widest location, when at which.
     */
    record Life(
            String id, long opened, Set<String> links, String widest, Map<String, Long> firstAt) {}

    /** Alertmanager's group_wait: an inhibition that comes within it stops the first mail. */
    static final long GROUP_WAIT_MS = 30_000;

    /** Whether an incident explained the alert's link from before it up to group_wait after it. */
    static boolean mutedInTime(JsonNode alert, Map<String, List<Long>> explainedAt) {
        long ts = alert.get("ts").asLong();
        List<Long> at =
                explainedAt.get(alert.get("src").asText() + "|" + alert.get("dst").asText());
        return at != null
                && at.stream()
                        .anyMatch(t -> t <= ts + GROUP_WAIT_MS && t >= ts - 6 * IncidentMesh.HOUR);
    }

    public static IncidentScore of(IncidentMesh mesh, List<JsonNode> events) {
        Map<String, Life> lives = new LinkedHashMap<>();
        Map<String, Integer> widestSize = new HashMap<>();
        Map<String, List<Long>> explainedAt = new HashMap<>();
        List<JsonNode> linkAlerts = new ArrayList<>();
        for (JsonNode e : events) {
            String kind = e.get("kind").asText();
            if (kind.equals("throughput_collapse")
                    || kind.equals("unreachable")
                    || kind.equals("high_loss")) {
                linkAlerts.add(e);
            }
            if (!kind.startsWith("incident_")) {
                continue;
            }
            String id = e.get("episode_id").asText();
            Life life =
                    lives.computeIfAbsent(
                            id,
                            k ->
                                    new Life(
                                            k,
                                            e.get("ts").asLong(),
                                            new HashSet<>(),
                                            null,
                                            new HashMap<>()));
            String loc =
                    e.get("location").get("type").asText()
                            + ":"
                            + e.get("location").get("name").asText();
            life.firstAt().putIfAbsent(loc, e.get("ts").asLong());
            Set<String> now = new HashSet<>();
            e.get("links")
                    .forEach(l -> now.add(l.get("src").asText() + "|" + l.get("dst").asText()));
            if (!kind.equals("incident_resolved")) {
                life.links().addAll(now);
                now.forEach(
                        l ->
                                explainedAt
                                        .computeIfAbsent(l, k -> new ArrayList<>())
                                        .add(e.get("ts").asLong()));
                if (now.size() > widestSize.getOrDefault(id, -1)) {
                    widestSize.put(id, now.size());
                    lives.put(id, new Life(id, life.opened(), life.links(), loc, life.firstAt()));
                }
            }
        }
        Set<String> faultLinks = new HashSet<>();
        mesh.faults.forEach(f -> faultLinks.addAll(f.links()));
        // each incident pages once, for the fault it shares most links with (none: a false one)
        Map<IncidentMesh.Fault, Integer> pages = new HashMap<>();
        for (Life l : lives.values()) {
            IncidentMesh.Fault owner = null;
            long most = 0;
            for (IncidentMesh.Fault f : mesh.faults) {
                long shared = l.links().stream().filter(f.links()::contains).count();
                if (shared > most) {
                    owner = f;
                    most = shared;
                }
            }
            if (owner != null) {
                pages.merge(owner, 1, Integer::sum);
            }
        }
        int correct = 0;
        int paged = 0;
        List<Long> delays = new ArrayList<>();
        List<String> misses = new ArrayList<>();
        for (IncidentMesh.Fault f : mesh.faults) {
            Life best = null;
            long most = 0;
            for (Life l : lives.values()) {
                long shared = l.links().stream().filter(f.links()::contains).count();
                if (shared > most) {
                    best = l;
                    most = shared;
                }
            }
            // a link alert of the fault pages on its own unless an incident explaining its link
            // exists, or comes within Alertmanager's group_wait (30 s), to mute it
            long alone =
                    linkAlerts.stream()
                            .filter(
                                    a ->
                                            a.get("ts").asLong() >= f.onset()
                                                    && a.get("ts").asLong() < f.end())
                            .filter(
                                    a ->
                                            f.links()
                                                    .contains(
                                                            a.get("src").asText()
                                                                    + "|"
                                                                    + a.get("dst").asText()))
                            .filter(a -> !mutedInTime(a, explainedAt))
                            .map(a -> a.get("src").asText() + "|" + a.get("dst").asText())
                            .distinct()
                            .count();
            paged += pages.getOrDefault(f, 0) + (int) alone;
            if (best != null && f.location().equals(best.widest())) {
                correct++;
                delays.add(best.firstAt().get(f.location()) - f.onset());
            } else {
                misses.add(
                        f.location()
                                + " → "
                                + (best == null
                                        ? "no incident"
                                        : best.widest() + " (" + most + " links)"));
            }
        }
        int healthyDay = 0;
        int faultDay = 0;
        for (Life l : lives.values()) {
            boolean anyFault = l.links().stream().anyMatch(faultLinks::contains);
            if (l.opened() < IncidentMesh.T0 + IncidentMesh.DAY) {
                healthyDay++;
            } else if (!anyFault) {
                faultDay++;
            }
        }
        int n = mesh.faults.size();
        return new IncidentScore(
                n, correct, n == 0 ? 0 : paged / (double) n, healthyDay, faultDay, delays, misses);
    }
}
