package org.longhaul.flink.functions.detect;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A link's path as a set of addresses per hop with how often each answered, learned from runs: a
 * hop answered by several routers (per-packet or per-flow ECMP) keeps them all. Also the range of
 * hop counts of runs that reached the destination and a smoothed RTT. A Flink POJO: at most
 * maxAddrsPerHop addresses per hop (≈ 20 bytes each).
 */
public final class PathModel {
    private static final double RTT_ALPHA = 0.3;

    /** How many of its latest runs' RTTs a model keeps for its median. */
    static final int RECENT_RTTS = 9;

    public String[][] addrs = new String[0][];
    public int[][] counts = new int[0][];
    public int reachedMin = Integer.MAX_VALUE;
    public int reachedMax = -1;
    public int runs;
    public double rttMs = Double.NaN;

    /**
     * The least RTT of its runs: the path's own delay, which queues only add to (NaN until a run
     * with an RTT, and in a model restored from before it was kept).
     */
    public double rttMinMs = Double.NaN;

    /**
     * The RTTs of its latest runs with one, oldest first, at most {@link #RECENT_RTTS} (null in a
     * model restored from before they were kept).
     */
    public double[] recentRttMs = new double[0];

    public static PathModel of(PathShape run, int maxAddrs) {
        PathModel m = new PathModel();
        m.absorb(run, maxAddrs);
        return m;
    }

    public int length() {
        return addrs.length;
    }

    /** TTLs (1-based) where this model and {@code run} certainly disagree. */
    public List<Integer> differences(PathShape run) {
        List<Integer> out = new ArrayList<>();
        for (int t = 0; t < Math.min(length(), run.hops().size()); t++) {
            if (addrs[t].length > 0
                    && !run.hops().get(t).isEmpty()
                    && disjoint(addrs[t], run.hops().get(t))) {
                out.add(t + 1);
            }
        }
        int len = run.hops().size();
        if (out.isEmpty()
                && run.reached()
                && reachedMax >= 0
                && (len < reachedMin || len > reachedMax)) {
            out.add(Math.min(len, reachedMax) + 1);
        }
        return out;
    }

    /**
     * Hops where the two models disagree: disjoint address sets, or a different reached hop count.
     */
    public List<ChangedHopRef> differences(PathModel other) {
        List<ChangedHopRef> out = new ArrayList<>();
        int n = Math.max(length(), other.length());
        for (int t = 0; t < n; t++) {
            boolean mine = t < length() && addrs[t].length > 0;
            boolean theirs = t < other.length() && other.addrs[t].length > 0;
            if (mine && theirs && disjoint(addrs[t], Set.of(other.addrs[t]))) {
                out.add(new ChangedHopRef(t + 1, representative(t), other.representative(t)));
            } else if (mine != theirs && (t >= length() || t >= other.length())) {
                out.add(
                        new ChangedHopRef(
                                t + 1,
                                mine ? representative(t) : null,
                                theirs ? other.representative(t) : null));
            }
        }
        return out;
    }

    /** A hop that differs between two models, by TTL, with their most frequent addresses. */
    public record ChangedHopRef(int ttl, String before, String after) {}

    public void absorb(PathShape run, int maxAddrs) {
        grow(run.hops().size());
        for (int t = 0; t < run.hops().size(); t++) {
            for (String addr : run.hops().get(t)) {
                count(t, addr, 1, maxAddrs);
            }
        }
        if (run.reached()) {
            reachedMin = Math.min(reachedMin, run.hops().size());
            reachedMax = Math.max(reachedMax, run.hops().size());
        }
        if (run.rttMs() != null) {
            rttMs =
                    Double.isNaN(rttMs)
                            ? run.rttMs()
                            : RTT_ALPHA * run.rttMs() + (1 - RTT_ALPHA) * rttMs;
            rttMinMs = lower(rttMinMs, run.rttMs());
            keepRtts(new double[] {run.rttMs()});
        }
        runs++;
    }

    public void absorb(PathModel other, int maxAddrs) {
        grow(other.length());
        for (int t = 0; t < other.length(); t++) {
            for (int i = 0; i < other.addrs[t].length; i++) {
                count(t, other.addrs[t][i], other.counts[t][i], maxAddrs);
            }
        }
        reachedMin = Math.min(reachedMin, other.reachedMin);
        reachedMax = Math.max(reachedMax, other.reachedMax);
        rttMinMs = lower(rttMinMs, other.rttMinMs);
        if (other.recentRttMs != null) {
            keepRtts(other.recentRttMs);
        }
        runs += other.runs;
    }

    /**
     * The median of its latest runs' RTTs (the lower of the two middle ones of an even count); in a
     * model restored without them, its least RTT, else its smoothed RTT, else NaN.
     */
    public double medianRttMs() {
        return rankedRttMs(2);
    }

    /**
     * The path's own delay: the lower quartile of its latest runs' RTTs. A queue only adds delay,
     * and on a link whose traceroutes often wait behind its transfers (the testbed's dst-b: every
     * other run timed 70-115 ms late, so the median of nine was 233 ms on a 161 ms path, the delay
     * of the 231 ms carrier its route then flipped to) the median is a queued run; one run timed on
     * the old path as the route moved (CI's 160 ms on the 230 ms carrier) is below it. As {@link
     * #medianRttMs()} in a model restored without its runs' RTTs.
     */
    public double delayMs() {
        return rankedRttMs(4);
    }

    /** The RTT at rank (n-1)/per of the latest runs' n, sorted; else as medianRttMs says. */
    private double rankedRttMs(int per) {
        if (recentRttMs == null || recentRttMs.length == 0) {
            return Double.isNaN(rttMinMs) ? rttMs : rttMinMs;
        }
        double[] sorted = recentRttMs.clone();
        Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / per];
    }

    private void keepRtts(double[] newer) {
        double[] old = recentRttMs == null ? new double[0] : recentRttMs;
        double[] all = Arrays.copyOf(old, old.length + newer.length);
        System.arraycopy(newer, 0, all, old.length, newer.length);
        recentRttMs = Arrays.copyOfRange(all, Math.max(0, all.length - RECENT_RTTS), all.length);
    }

    private static double lower(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.min(a, b);
    }

    /**
     * The address most often seen at hop index t (ties: the smallest), or "*" when none answered.
     */
    public String representative(int t) {
        if (t >= length() || addrs[t].length == 0) {
            return "*";
        }
        int best = 0;
        for (int i = 1; i < addrs[t].length; i++) {
            if (counts[t][i] > counts[t][best]
                    || (counts[t][i] == counts[t][best]
                            && addrs[t][i].compareTo(addrs[t][best]) < 0)) {
                best = i;
            }
        }
        return addrs[t][best];
    }

    public List<String> representatives() {
        List<String> out = new ArrayList<>();
        for (int t = 0; t < length(); t++) {
            out.add(representative(t));
        }
        return out;
    }

    private void grow(int n) {
        if (n > addrs.length) {
            int old = addrs.length;
            addrs = Arrays.copyOf(addrs, n);
            counts = Arrays.copyOf(counts, n);
            for (int t = old; t < n; t++) {
                addrs[t] = new String[0];
                counts[t] = new int[0];
            }
        }
    }

    private void count(int t, String addr, int n, int maxAddrs) {
        for (int i = 0; i < addrs[t].length; i++) {
            if (addrs[t][i].equals(addr)) {
                counts[t][i] += n;
                return;
            }
        }
        addrs[t] = Arrays.copyOf(addrs[t], addrs[t].length + 1);
        counts[t] = Arrays.copyOf(counts[t], counts[t].length + 1);
        addrs[t][addrs[t].length - 1] = addr;
        counts[t][counts[t].length - 1] = n;
        if (addrs[t].length > maxAddrs) {
            forgetRarest(t);
        }
    }

    private void forgetRarest(int t) {
        int rare = 0;
        for (int i = 1; i < counts[t].length; i++) {
            if (counts[t][i] < counts[t][rare]) {
                rare = i;
            }
        }
        String[] a = new String[addrs[t].length - 1];
        int[] c = new int[a.length];
        for (int i = 0, j = 0; i < addrs[t].length; i++) {
            if (i != rare) {
                a[j] = addrs[t][i];
                c[j++] = counts[t][i];
            }
        }
        addrs[t] = a;
        counts[t] = c;
    }

    private static boolean disjoint(String[] known, Set<String> seen) {
        for (String a : known) {
            if (seen.contains(a)) {
                return false;
            }
        }
        return true;
    }
}
