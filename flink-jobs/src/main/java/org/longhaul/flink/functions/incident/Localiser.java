package org.longhaul.flink.functions.incident;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.longhaul.flink.records.Location;

/**
 * Boolean network tomography over the links' current paths: the smallest set of locations (hops,
 * destination sites, source hosts) that explains every degraded link and as few healthy ones as it
 * can. Greedy set cover: each round names the location whose explained links, less {@link
 * IncidentParams#healthyWeight} per recently healthy link through it, score highest. Pure: the
 * correlator calls it with its state.
 */
public final class Localiser {
    private Localiser() {}

    /** A location's tally over every link. */
    static final class Tally {
        final Location location;
        final TreeSet<String> degraded = new TreeSet<>();
        int healthy;

        Tally(Location location) {
            this.location = location;
        }
    }

    /**
     * The locations that explain the degraded links, most explaining first.
     *
     * @param links every link the correlator knows, by "src|dst"
     * @param now event time: a link is healthy when its last good run is within the window before,
     *     and later than its last low run
     * @param open the keys ({@link Location#key()}) of open incidents' locations: such a location
     *     keeps one link, and wins a tie
     */
    public static List<Finding> localise(
            Map<String, LinkView> links, long now, IncidentParams p, Set<String> open) {
        List<Finding> out = new ArrayList<>();
        for (String symptom : List.of(LinkView.DOWN, LinkView.DEGRADED)) {
            out.addAll(localise(links, symptom, now, p, open));
        }
        return out;
    }

    /** The locations of one symptom's links; links of the other symptom count as neither. */
    static List<Finding> localise(
            Map<String, LinkView> links,
            String symptom,
            long now,
            IncidentParams p,
            Set<String> open) {
        Map<String, Tally> tallies = tally(links, symptom, now, p);
        Set<String> uncovered = new HashSet<>();
        for (Map.Entry<String, LinkView> e : links.entrySet()) {
            if (e.getValue().degraded() && e.getValue().symptom().equals(symptom)) {
                uncovered.add(e.getKey());
            }
        }
        List<Finding> out = new ArrayList<>();
        while (!uncovered.isEmpty()) {
            Tally best = null;
            double bestScore = 0;
            for (Tally t : tallies.values()) {
                boolean isOpen = open.contains(Finding.key(symptom, t.location));
                double score = score(t, uncovered, p, isOpen);
                if (!Double.isNaN(score) && (best == null || better(t, score, best, bestScore))) {
                    best = t;
                    bestScore = score;
                }
            }
            if (best == null) {
                break;
            }
            List<String> explained = new ArrayList<>();
            for (String l : best.degraded) {
                if (uncovered.remove(l)) {
                    explained.add(l);
                }
            }
            out.add(
                    new Finding(
                            symptom,
                            best.location,
                            explained,
                            best.degraded.size(),
                            best.healthy,
                            healthyAvoiding(links, explained, best.location, now, p),
                            indistinct(tallies, best)));
        }
        return out;
    }

    /** Every location on a degraded link's path, with its degraded and healthy links. */
    static Map<String, Tally> tally(
            Map<String, LinkView> links, String symptom, long now, IncidentParams p) {
        Map<String, Tally> tallies = new LinkedHashMap<>();
        for (Map.Entry<String, LinkView> e : links.entrySet()) {
            if (e.getValue().degraded() && e.getValue().symptom().equals(symptom)) {
                for (Location loc : e.getValue().locations()) {
                    tallies.computeIfAbsent(loc.key(), k -> new Tally(loc))
                            .degraded
                            .add(e.getKey());
                }
            }
        }
        for (LinkView v : links.values()) {
            if (healthy(v, now, p)) {
                for (Location loc : v.locations()) {
                    Tally t = tallies.get(loc.key());
                    if (t != null) {
                        t.healthy++;
                    }
                }
            }
        }
        return tallies;
    }

    static boolean healthy(LinkView v, long now, IncidentParams p) {
        return !v.degraded()
                && v.lastGood > v.lastLow
                && v.lastGood >= now - p.healthyWindow().toMillis();
    }

    /**
     * A location's score, NaN when it may not be named: it must explain at least minLinks uncovered
     * links, degraded links must be at least minShare of the measured links through it, and it must
     * explain more than its healthy links weigh. An open incident's location needs one link only,
     * its recovered links do not weigh against it, and it wins a tie: an incident stays where it is
     * until its links recover, unless a location explaining more links takes it.
     */
    static double score(Tally t, Set<String> uncovered, IncidentParams p, boolean open) {
        int n = 0;
        for (String l : t.degraded) {
            if (uncovered.contains(l)) {
                n++;
            }
        }
        if (open && n >= 1) {
            return n + 0.25;
        }
        if (n < p.minLinks()) {
            return Double.NaN;
        }
        double share = t.degraded.size() / (double) (t.degraded.size() + t.healthy);
        if (share < p.minShare()) {
            return Double.NaN;
        }
        double score = n - p.healthyWeight() * t.healthy;
        return score > 0 ? score : Double.NaN;
    }

    /**
     * Ties: the higher score, then a site or host over a hop (the place someone owns), then the
     * location fewer links pass (the more specific), then the name (stable).
     */
    static boolean better(Tally a, double sa, Tally b, double sb) {
        if (sa != sb) {
            return sa > sb;
        }
        if (a.location.endpoint() != b.location.endpoint()) {
            return a.location.endpoint();
        }
        int ta = a.degraded.size() + a.healthy;
        int tb = b.degraded.size() + b.healthy;
        if (ta != tb) {
            return ta < tb;
        }
        return a.location.key().compareTo(b.location.key()) < 0;
    }

    static int healthyAvoiding(
            Map<String, LinkView> links,
            List<String> explained,
            Location at,
            long now,
            IncidentParams p) {
        Set<String> ends = new HashSet<>();
        for (String l : explained) {
            LinkView v = links.get(l);
            ends.add("s:" + v.src);
            ends.add("d:" + v.dst);
        }
        int n = 0;
        for (LinkView v : links.values()) {
            if (healthy(v, now, p)
                    && (ends.contains("s:" + v.src) || ends.contains("d:" + v.dst))
                    && !passes(v, at)) {
                n++;
            }
        }
        return n;
    }

    static boolean passes(LinkView v, Location at) {
        for (Location loc : v.locations()) {
            if (loc.key().equals(at.key())) {
                return true;
            }
        }
        return false;
    }

    static int indistinct(Map<String, Tally> tallies, Tally best) {
        int n = 0;
        for (Tally t : tallies.values()) {
            if (t != best && t.healthy == best.healthy && t.degraded.equals(best.degraded)) {
                n++;
            }
        }
        return n;
    }
}
