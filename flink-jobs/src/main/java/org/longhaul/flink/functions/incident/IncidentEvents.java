package org.longhaul.flink.functions.incident;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventBuilder;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.IncidentLink;
import org.longhaul.flink.records.Location;

/** The events of incident changes: what an operator reads first is the location. */
public final class IncidentEvents {
    static final String DETECTOR = "incident-correlator";

    private IncidentEvents() {}

    /**
     * The event of one change at event time {@code ts}; {@code links} is the correlator's view of
     * every link, {@code openedTs} when the incident opened.
     */
    public static Event of(IncidentChange c, Map<String, LinkView> links, long ts, long openedTs) {
        if (c.type() == IncidentChange.Type.RESOLVED) {
            return resolved(c.before(), links, ts);
        }
        Finding f = c.finding();
        List<IncidentLink> explained = explained(f.links(), links);
        boolean critical = f.links().stream().anyMatch(l -> links.get(l).critical());
        String message = describe(f, explained);
        if (c.type() == IncidentChange.Type.UPDATED) {
            Location was = c.before().location();
            message =
                    (was.equals(f.location()) ? "" : "relocated from " + was.label() + ": ")
                            + message;
        }
        EventKind kind =
                c.type() == IncidentChange.Type.OPENED
                        ? EventKind.INCIDENT_OPENED
                        : EventKind.INCIDENT_UPDATED;
        EventBuilder b =
                start(kind, f.location(), ts, c.id(), openedTs, explained)
                        .severity(critical ? "critical" : "warning")
                        .message(message)
                        .evidence("links_degraded", f.links().size())
                        .evidence("links_degraded_through", f.degraded())
                        .evidence("links_healthy_through", f.healthy())
                        .evidence("links_healthy_avoiding", f.healthyAvoiding())
                        .evidence("indistinct_locations", f.indistinct())
                        .evidence("kinds", String.join(",", kinds(explained)));
        return b.build();
    }

    static Event resolved(OpenIncident was, Map<String, LinkView> links, long ts) {
        int still = 0;
        for (String l : was.links) {
            LinkView v = links.get(l);
            if (v != null && v.degraded()) {
                still++;
            }
        }
        long minutes = Math.max(0, ts - was.openedTs) / 60_000;
        String message =
                still == 0
                        ? String.format(
                                "%s: its %d links have recovered (open %d min)",
                                was.location().label(), was.links.length, minutes)
                        : String.format(
                                "%s: no longer explains its links (%d of %d still degraded, now"
                                        + " alerts of their own or of another incident; open %d min)",
                                was.location().label(), still, was.links.length, minutes);
        return start(
                        EventKind.INCIDENT_RESOLVED,
                        was.location(),
                        ts,
                        was.id,
                        was.openedTs,
                        was.lastLinks())
                .severity("info")
                .message(message)
                .evidence("links_still_degraded", still)
                .build();
    }

    private static EventBuilder start(
            EventKind kind,
            Location at,
            long ts,
            String id,
            long openedTs,
            List<IncidentLink> links) {
        String src = Location.HOST.equals(at.type()) ? at.name() : "*";
        String dst = Location.SITE.equals(at.type()) ? at.name() : "*";
        EventBuilder b =
                Event.builder(kind, src, dst, DETECTOR, ts)
                        .episode(id)
                        .incident(at, links)
                        .evidence("location_type", at.type())
                        .evidence("location", at.name())
                        .evidence("since_ms", openedTs)
                        .evidence("link_list", linkList(links));
        if (at.asn() != null) {
            b.evidence("asn", at.asn());
        }
        return b;
    }

    /**
     * "4 of 4 measured links through hop 198.18.50.1 (AS 64512) are degraded (throughput_collapse);
     * 2 healthy links from or to the same sites avoid it".
     */
    static String describe(Finding f, List<IncidentLink> explained) {
        String through =
                switch (f.location().type()) {
                    case Location.SITE -> "to";
                    case Location.HOST -> "from";
                    default -> "through";
                };
        StringBuilder s =
                new StringBuilder()
                        .append(f.degraded())
                        .append(" of ")
                        .append(f.degraded() + f.healthy())
                        .append(" measured links ")
                        .append(through)
                        .append(' ')
                        .append(f.location().label())
                        .append(" are degraded (")
                        .append(String.join(", ", kinds(explained)))
                        .append(')');
        if (f.healthyAvoiding() > 0) {
            s.append("; ")
                    .append(f.healthyAvoiding())
                    .append(f.healthyAvoiding() == 1 ? " healthy link" : " healthy links")
                    .append(" from or to the same sites avoid it");
        }
        if (f.indistinct() > 0) {
            s.append("; ")
                    .append(f.indistinct())
                    .append(f.indistinct() == 1 ? " other location" : " other locations")
                    .append(" on the same links cannot be told apart from it");
        }
        return s.toString();
    }

    /**
     * The links as one string, "a → d1 (throughput_collapse); b → d1 (high_loss, unreachable)": the
     * event's {@code links} array for stores that keep no arrays (Telegraf's events in InfluxDB,
     * which {@code longhaul incidents}, the report and the dashboards' incidents panel read).
     */
    static String linkList(List<IncidentLink> links) {
        List<String> out = new ArrayList<>();
        for (IncidentLink l : links) {
            String kinds = l.kinds().isEmpty() ? "" : " (" + String.join(", ", l.kinds()) + ")";
            out.add(l.src() + " → " + l.dst() + kinds);
        }
        return String.join("; ", out);
    }

    static List<IncidentLink> explained(List<String> keys, Map<String, LinkView> links) {
        List<IncidentLink> out = new ArrayList<>();
        for (String l : keys) {
            LinkView v = links.get(l);
            out.add(new IncidentLink(v.src, v.dst, v.kinds()));
        }
        return out;
    }

    static List<String> kinds(List<IncidentLink> links) {
        Set<String> out = new LinkedHashSet<>();
        for (IncidentLink l : links) {
            out.addAll(l.kinds());
        }
        return new ArrayList<>(out);
    }
}
