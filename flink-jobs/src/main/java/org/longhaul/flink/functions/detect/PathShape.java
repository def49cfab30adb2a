package org.longhaul.flink.functions.detect;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.longhaul.flink.records.HopProbe;
import org.longhaul.flink.records.PathHop;
import org.longhaul.flink.records.PathSample;

/**
 * One traceroute run as the route detector sees it: per TTL the SET of addresses that answered any
 * query (an empty set is `*`: unknown, compatible with anything), trailing `*` hops trimmed,
 * whether the destination answered, and the RTT of the last answering hop.
 */
public record PathShape(List<Set<String>> hops, boolean reached, Double rttMs) {

    public static PathShape of(PathSample sample) {
        List<Set<String>> hops = new ArrayList<>();
        for (PathHop hop : sample.hops()) {
            while (hops.size() < hop.ttl()) {
                hops.add(new LinkedHashSet<>());
            }
            for (HopProbe probe : hop.probes()) {
                if (probe.addr() != null) {
                    hops.get(hop.ttl() - 1).add(probe.addr());
                }
            }
        }
        while (!hops.isEmpty() && hops.get(hops.size() - 1).isEmpty()) {
            hops.remove(hops.size() - 1);
        }
        return new PathShape(hops, sample.reached(), lastHopRtt(sample));
    }

    /** The smallest RTT answered at the highest TTL that answered at all. */
    static Double lastHopRtt(PathSample sample) {
        for (int i = sample.hops().size() - 1; i >= 0; i--) {
            Double best = null;
            for (HopProbe probe : sample.hops().get(i).probes()) {
                if (probe.addr() != null && probe.rttMs() != null) {
                    best = best == null ? probe.rttMs() : Math.min(best, probe.rttMs());
                }
            }
            if (best != null) {
                return best;
            }
        }
        return null;
    }

    public boolean measured() {
        return !hops.isEmpty();
    }
}
