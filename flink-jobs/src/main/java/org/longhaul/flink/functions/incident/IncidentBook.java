package org.longhaul.flink.functions.incident;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Matches a localisation's findings to the open incidents, so one fault stays one incident while
 * its links come and go, or while evidence moves it to a better location. Pure.
 */
public final class IncidentBook {
    private IncidentBook() {}

    /**
     * The changes that take the open incidents to the findings: a finding at an open incident's
     * location, else sharing the most links with one not yet matched, updates that incident (when
     * its links or location differ); any other finding opens one; an open incident no finding
     * matched is resolved.
     */
    public static List<IncidentChange> reconcile(
            Map<String, OpenIncident> open, List<Finding> findings, long now) {
        Map<String, OpenIncident> unmatched = new TreeMap<>(open);
        List<IncidentChange> out = new ArrayList<>();
        for (Finding f : findings) {
            OpenIncident match = atLocation(unmatched, f);
            if (match == null) {
                match = mostShared(unmatched, f);
            }
            if (match == null) {
                out.add(new IncidentChange(IncidentChange.Type.OPENED, id(f, now), f, null));
                continue;
            }
            unmatched.remove(match.id);
            if (!match.linkList().equals(f.links()) || !match.location().equals(f.location())) {
                out.add(new IncidentChange(IncidentChange.Type.UPDATED, match.id, f, match));
            }
        }
        for (OpenIncident gone : unmatched.values()) {
            out.add(new IncidentChange(IncidentChange.Type.RESOLVED, gone.id, null, gone));
        }
        return out;
    }

    /** An incident's episode id: its location and the event time it opened. */
    static String id(Finding f, long now) {
        return "incident-" + f.location().type() + "-" + f.location().name() + "-" + now;
    }

    private static OpenIncident atLocation(Map<String, OpenIncident> open, Finding f) {
        for (OpenIncident o : open.values()) {
            if (o.key().equals(f.key())) {
                return o;
            }
        }
        return null;
    }

    private static OpenIncident mostShared(Map<String, OpenIncident> open, Finding f) {
        Set<String> links = new HashSet<>(f.links());
        OpenIncident best = null;
        int most = 0;
        for (OpenIncident o : open.values()) {
            if (!f.symptom().equals(o.symptom)) {
                continue;
            }
            int shared = 0;
            for (String l : o.links) {
                if (links.contains(l)) {
                    shared++;
                }
            }
            if (shared > most) {
                best = o;
                most = shared;
            }
        }
        return best;
    }
}
