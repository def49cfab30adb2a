package org.longhaul.flink.functions.incident;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.HopProbe;
import org.longhaul.flink.records.LatencySample;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.PathHop;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.Suspicion;
import org.longhaul.flink.records.SuspicionReason;
import org.longhaul.flink.records.ThroughputSample;

/**
 * One thing the correlator learns about a link: an alert that degrades it opened or closed, its
 * current path, a good run, or a run found low that does not alarm yet. Built by the {@code of}
 * functions, which return null for what the correlator does not use.
 *
 * @param alertKey the alert's episode id (else kind, probe and protocol): its recovery closes it
 * @param hops a path's addresses, in TTL order, the destination's own excluded (its dst_addr, and
 *     on a path that reached it the last TTL that answered)
 * @param asns each address's AS number, null when the traceroute did not say
 * @param ttls each address's TTL
 */
public record IncidentInput(
        Type type,
        String src,
        String dst,
        long ts,
        String kind,
        String alertKey,
        String severity,
        boolean reached,
        List<String> hops,
        List<Long> asns,
        List<Integer> ttls) {

    /** What the input says. */
    public enum Type {
        ALERT_OPEN,
        ALERT_CLOSE,
        PATH,
        GOOD_RUN,
        LOW_RUN
    }

    /**
     * The alert kinds that make a link degraded: what a hop, a site or a host can cause. (Jitter
     * and no data are not: the one is a UDP property of the path's queues, the other the agent's.)
     */
    public static final Set<EventKind> DEGRADING =
            EnumSet.of(EventKind.THROUGHPUT_COLLAPSE, EventKind.UNREACHABLE, EventKind.HIGH_LOSS);

    public String link() {
        return Links.key(src, dst);
    }

    /** A degrading alert opened or closed on one link; null for any other event. */
    public static IncidentInput of(Event e) {
        EventKind k = EventKind.ofWire(e.kind());
        if (k == null || "*".equals(e.src()) || "*".equals(e.dst())) {
            return null;
        }
        if (DEGRADING.contains(k)) {
            return alert(Type.ALERT_OPEN, e, k);
        }
        if (k.role() == EventKind.Role.RECOVERY && DEGRADING.contains(k.closes())) {
            return alert(Type.ALERT_CLOSE, e, k.closes());
        }
        return null;
    }

    private static IncidentInput alert(Type type, Event e, EventKind alert) {
        return new IncidentInput(
                type,
                e.src(),
                e.dst(),
                e.ts(),
                alert.wire(),
                alertKey(e, alert),
                e.severity(),
                false,
                null,
                null,
                null);
    }

    static String alertKey(Event e, EventKind alert) {
        if (e.episodeId() != null) {
            return e.episodeId();
        }
        return alert.wire() + "|" + e.probeId() + "|" + e.protocol();
    }

    /**
     * A traceroute's path: every address that answered at each TTL (ECMP siblings all count) with
     * its TTL, the destination's own address left out; null for a run with no hop answering.
     */
    public static IncidentInput of(PathSample p) {
        Map<String, Long> addrs = new LinkedHashMap<>();
        Map<String, Integer> ttl = new LinkedHashMap<>();
        int last = p.reached() ? lastAnswered(p) : -1;
        for (PathHop hop : p.hops()) {
            for (HopProbe probe : hop.probes()) {
                if (probe.addr() != null
                        && hop.ttl() != last
                        && !probe.addr().equals(p.dstAddr())) {
                    Long known = addrs.get(probe.addr());
                    addrs.put(probe.addr(), known != null ? known : probe.asn());
                    ttl.putIfAbsent(probe.addr(), hop.ttl());
                }
            }
        }
        if (addrs.isEmpty()) {
            return null;
        }
        return new IncidentInput(
                Type.PATH,
                p.src(),
                p.dst(),
                p.ts(),
                null,
                null,
                null,
                p.reached(),
                new ArrayList<>(addrs.keySet()),
                new ArrayList<>(addrs.values()),
                new ArrayList<>(ttl.values()));
    }

    /** The highest TTL any address answered at: on a reached path, the destination's own. */
    static int lastAnswered(PathSample p) {
        int last = -1;
        for (PathHop hop : p.hops()) {
            if (hop.probes().stream().anyMatch(x -> x.addr() != null)) {
                last = Math.max(last, hop.ttl());
            }
        }
        return last;
    }

    /**
     * A throughput run summary: one that measured says the link works; a failed one that it is no
     * evidence of health (it may be the start of an outage no alert has named yet). A run its agent
     * could not start (not_started: the slot was missed, the previous run still going) says nothing
     * of the link, as in the statistics and the reachability detectors: null.
     */
    public static IncidentInput of(ThroughputSample t) {
        if (t.error() != null && t.error().notStarted()) {
            return null;
        }
        return run(t.error() == null ? Type.GOOD_RUN : Type.LOW_RUN, t.src(), t.dst(), t.ts());
    }

    /** A ping run that got answers. */
    public static IncidentInput of(RttSample r) {
        return r.error() == null && r.received() > 0 ? good(r.src(), r.dst(), r.ts()) : null;
    }

    /** A one-way latency run that got packets through. */
    public static IncidentInput of(LatencySample l) {
        return l.error() == null && l.packetsReceived() > 0 ? good(l.src(), l.dst(), l.ts()) : null;
    }

    /**
     * A run the collapse detector found low that does not yet make a collapse: the link is not
     * evidence of health, though its run measured.
     */
    public static IncidentInput of(Suspicion s) {
        if (!SuspicionReason.THROUGHPUT_LOW.wire().equals(s.reason())) {
            return null;
        }
        return run(Type.LOW_RUN, s.src(), s.dst(), s.ts());
    }

    static IncidentInput good(String src, String dst, long ts) {
        return run(Type.GOOD_RUN, src, dst, ts);
    }

    private static IncidentInput run(Type type, String src, String dst, long ts) {
        return new IncidentInput(type, src, dst, ts, null, null, null, false, null, null, null);
    }
}
