package org.longhaul.flink.functions.incident;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.Location;

/**
 * What the correlator knows of one link: its current path, its open degrading alerts and its latest
 * good run. A Flink POJO (parallel arrays, no maps): about 100 bytes plus 30 per hop and 60 per
 * open alert.
 */
public final class LinkView {
    public String src;
    public String dst;

    /** The current path's addresses, the destination's own excluded; empty until one is seen. */
    public String[] hops = new String[0];

    /** Each hop's AS number, 0 when unknown. */
    public long[] asns = new long[0];

    /** Each hop's TTL. */
    public int[] ttls = new int[0];

    /**
     * Whether that path reached the destination (a reached path is never replaced by one that did
     * not).
     */
    public boolean pathReached;

    /** The open degrading alerts: key (episode), kind and severity. */
    public String[] alertKeys = new String[0];

    public String[] alertKinds = new String[0];
    public String[] alertSeverities = new String[0];

    /** Event time of the latest good run (0: none). */
    public long lastGood;

    /**
     * Event time of the latest run found low (0: none): no good run at or before it is evidence.
     */
    public long lastLow;

    /** Event time of the latest input of any type. */
    public long lastSeen;

    public LinkView() {}

    public LinkView(String src, String dst) {
        this.src = src;
        this.dst = dst;
    }

    public boolean degraded() {
        return alertKeys.length > 0;
    }

    /**
     * Takes one input; true when it changes what localisation sees (an alert opened or closed, a
     * degraded link's path), so the correlator should localise again.
     */
    public boolean apply(IncidentInput in) {
        lastSeen = Math.max(lastSeen, in.ts());
        switch (in.type()) {
            case ALERT_OPEN:
                return open(in.alertKey(), in.kind(), in.severity());
            case ALERT_CLOSE:
                return close(in.alertKey(), in.kind());
            case PATH:
                return path(in) && degraded();
            case LOW_RUN:
                lastLow = Math.max(lastLow, in.ts());
                return false;
            default:
                lastGood = Math.max(lastGood, in.ts());
                return false;
        }
    }

    boolean open(String key, String kind, String severity) {
        int i = Arrays.asList(alertKeys).indexOf(key);
        if (i >= 0) {
            boolean changed = !severity.equals(alertSeverities[i]);
            alertSeverities[i] = severity;
            return changed;
        }
        alertKeys = append(alertKeys, key);
        alertKinds = append(alertKinds, kind);
        alertSeverities = append(alertSeverities, severity);
        return true;
    }

    /**
     * Closes the alert of that key, else (a recovery without the alert's episode) every one of that
     * kind.
     */
    boolean close(String key, String kind) {
        int n = alertKeys.length;
        boolean byKey = Arrays.asList(alertKeys).contains(key);
        List<Integer> keep = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (byKey ? !alertKeys[i].equals(key) : !alertKinds[i].equals(kind)) {
                keep.add(i);
            }
        }
        if (keep.size() == n) {
            return false;
        }
        alertKeys = pick(alertKeys, keep);
        alertKinds = pick(alertKinds, keep);
        alertSeverities = pick(alertSeverities, keep);
        return true;
    }

    /**
     * A new path replaces the current one, except at a TTL where nothing answered (`*`) below the
     * new path's last: the hop seen there before is kept, as a hop that does not answer is unknown,
     * not absent.
     */
    boolean path(IncidentInput in) {
        if (pathReached && !in.reached()) {
            return false;
        }
        List<String> h = new ArrayList<>(in.hops());
        List<Long> a = new ArrayList<>();
        List<Integer> t = new ArrayList<>(in.ttls());
        for (Long asn : in.asns()) {
            a.add(asn == null ? 0L : asn);
        }
        int newest = t.stream().mapToInt(Integer::intValue).max().orElse(0);
        for (int i = 0; i < hops.length; i++) {
            if (!in.ttls().contains(ttls[i]) && ttls[i] < newest && !h.contains(hops[i])) {
                h.add(hops[i]);
                a.add(asns[i]);
                t.add(ttls[i]);
            }
        }
        String[] next = h.toArray(new String[0]);
        boolean changed = !Arrays.equals(hops, next);
        hops = next;
        asns = a.stream().mapToLong(Long::longValue).toArray();
        ttls = t.stream().mapToInt(Integer::intValue).toArray();
        pathReached = in.reached();
        return changed;
    }

    /** Every place the link's fault could be: each hop of its path, its destination, its source. */
    public List<Location> locations() {
        List<Location> out = new ArrayList<>(hops.length + 2);
        for (int i = 0; i < hops.length; i++) {
            out.add(Location.hop(hops[i], asns[i] == 0 ? null : asns[i]));
        }
        out.add(Location.site(dst));
        out.add(Location.host(src));
        return out;
    }

    /** The open alert kinds, each once, in the contract's order. */
    public List<String> kinds() {
        List<String> out = new ArrayList<>();
        for (EventKind k : EventKind.values()) {
            if (Arrays.asList(alertKinds).contains(k.wire())) {
                out.add(k.wire());
            }
        }
        return out;
    }

    /**
     * The link's symptom: "down" when an unreachable alert is open, else "degraded". A fault shows
     * one symptom on the links it explains (a lost site makes links unreachable, a congested hop
     * makes them slow or lossy), so each symptom is localised on its own.
     */
    public String symptom() {
        return Arrays.asList(alertKinds).contains(EventKind.UNREACHABLE.wire()) ? DOWN : DEGRADED;
    }

    public static final String DOWN = "down";
    public static final String DEGRADED = "degraded";

    public boolean critical() {
        return Arrays.asList(alertSeverities).contains("critical");
    }

    private static String[] append(String[] a, String v) {
        String[] out = Arrays.copyOf(a, a.length + 1);
        out[a.length] = v;
        return out;
    }

    private static String[] pick(String[] a, List<Integer> keep) {
        String[] out = new String[keep.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a[keep.get(i)];
        }
        return out;
    }
}
