package org.longhaul.flink.functions.incident;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.longhaul.flink.records.IncidentLink;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.Location;

/** An open incident as the correlator keeps it. A Flink POJO. */
public final class OpenIncident {
    public String id;
    public String symptom;
    public String type;
    public String name;

    /** The location's AS number, 0 when unknown. */
    public long asn;

    public long openedTs;

    /** The links it explains ("src|dst"), sorted. */
    public String[] links = new String[0];

    /** Each link's alert kinds when last seen, comma-separated. */
    public String[] kinds = new String[0];

    public OpenIncident() {}

    public OpenIncident(
            String id, String symptom, Location at, long openedTs, List<IncidentLink> explained) {
        this.id = id;
        this.symptom = symptom;
        this.openedTs = openedTs;
        set(at, explained);
    }

    public Location location() {
        return new Location(type, name, asn == 0 ? null : asn);
    }

    /** The symptom and location, as {@link Finding#key()}. */
    public String key() {
        return Finding.key(symptom, location());
    }

    public List<String> linkList() {
        return Arrays.asList(links);
    }

    /** The links as they were last, for the resolved event. */
    public List<IncidentLink> lastLinks() {
        List<IncidentLink> out = new ArrayList<>();
        for (int i = 0; i < links.length; i++) {
            String[] ends = links[i].split("\\|", 2);
            out.add(new IncidentLink(ends[0], ends[1], List.of(kinds[i].split(","))));
        }
        return out;
    }

    void set(Location at, List<IncidentLink> explained) {
        type = at.type();
        name = at.name();
        asn = at.asn() == null ? 0 : at.asn();
        links = new String[explained.size()];
        kinds = new String[explained.size()];
        for (int i = 0; i < links.length; i++) {
            IncidentLink l = explained.get(i);
            links[i] = Links.key(l.src(), l.dst());
            kinds[i] = String.join(",", l.kinds());
        }
    }
}
