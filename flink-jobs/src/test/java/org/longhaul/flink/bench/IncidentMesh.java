package org.longhaul.flink.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.longhaul.flink.testing.Samples;

/**
 * A generated mesh for the incident benchmark: every source to every site, each path over the
 * source's access router, one of its regional routers, one of the carriers (with its AS), the
 * site's regional router and its access router. A healthy day, then a day where {@code faults}
 * faults of mixed kinds (a carrier or regional hop and a site, that make links slow or down; a
 * source host, that makes them slow) start at staggered times and last four hours, with noise
 * throughout: each link's own level and ±15 % per run, a few single-link collapses a day, and
 * traceroutes that miss a hop.
 */
public final class IncidentMesh {
    public static final long T0 = Samples.T0;
    public static final long HOUR = Samples.HOUR;
    public static final long DAY = 24 * HOUR;

    /**
     * One injected fault: its location ("hop:ADDR", "site:NAME", "host:NAME"), when, and its links.
     */
    public record Fault(String location, boolean down, long onset, long end, Set<String> links) {}

    public final int sources;
    public final int sites;
    public final long interval;
    public final List<Fault> faults = new ArrayList<>();

    /** The links a noise collapse hit (alone), with its onset. */
    public final List<String> noise = new ArrayList<>();

    private final Random rnd;

    public IncidentMesh(int sources, int sites, long intervalMs, long seed) {
        this.sources = sources;
        this.sites = sites;
        this.interval = intervalMs;
        this.rnd = new Random(seed);
    }

    public static String src(int i) {
        return "src-" + i + ".example.org";
    }

    public static String site(int j) {
        return "site-" + j + ".example.net";
    }

    static String link(int i, int j) {
        return src(i) + "|" + site(j);
    }

    /** The routers of link (i, j), in order; a carrier's AS is 64500 + its number. */
    List<String> hops(int i, int j) {
        return List.of(
                "10." + i + ".0.1",
                "10.200." + (i % 8) + "." + (1 + (j % 2)),
                carrier(i, j),
                "10.201." + (j % 5) + ".1",
                "10." + (100 + j) + ".0.1");
    }

    static String carrier(int i, int j) {
        return "198.18." + ((i + j) % 6) + ".1";
    }

    static long asn(String hop) {
        return hop.startsWith("198.18.") ? 64500 + Integer.parseInt(hop.split("\\.")[2]) : 0;
    }

    /** Chooses the faults: carriers and regional hops, sites and hosts, none at the same place. */
    public IncidentMesh inject(int count) {
        Set<String> used = new HashSet<>();
        long day2 = T0 + DAY;
        for (int f = 0; f < count; f++) {
            long onset = day2 + 2 * HOUR + f * 20 * 60_000L;
            String loc;
            boolean down;
            switch (f % 4) {
                case 0 -> {
                    loc = "hop:198.18." + rnd.nextInt(6) + ".1";
                    down = false;
                }
                case 1 -> {
                    loc = "hop:10.200." + rnd.nextInt(8) + "." + (1 + rnd.nextInt(2));
                    down = rnd.nextBoolean();
                }
                case 2 -> {
                    loc = "site:" + site(rnd.nextInt(sites));
                    down = true;
                }
                default -> {
                    loc = "host:" + src(rnd.nextInt(sources));
                    down = false;
                }
            }
            if (!used.add(loc)) {
                f--;
                continue;
            }
            faults.add(new Fault(loc, down, onset, onset + 4 * HOUR, linksAt(loc)));
        }
        return this;
    }

    Set<String> linksAt(String loc) {
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < sources; i++) {
            for (int j = 0; j < sites; j++) {
                boolean at =
                        switch (loc.substring(0, loc.indexOf(':'))) {
                            case "hop" -> hops(i, j).contains(loc.substring(4));
                            case "site" -> loc.equals("site:" + site(j));
                            default -> loc.equals("host:" + src(i));
                        };
                if (at) {
                    out.add(link(i, j));
                }
            }
        }
        return out;
    }

    /** The raw samples of both days, in time order. */
    public List<String> lines() {
        double[] level = new double[sources * sites];
        long[] noiseOnset = new long[sources * sites];
        for (int k = 0; k < level.length; k++) {
            level[k] = 100 + 800 * rnd.nextDouble();
            // about 1 % of links a day collapse alone, for three hours
            noiseOnset[k] = rnd.nextDouble() < 0.02 ? T0 + (long) (rnd.nextDouble() * 2 * DAY) : -1;
            if (noiseOnset[k] > 0) {
                noise.add(link(k / sites, k % sites));
            }
        }
        List<String> out = new ArrayList<>();
        for (long t = T0; t < T0 + 2 * DAY; t += interval) {
            for (int i = 0; i < sources; i++) {
                for (int j = 0; j < sites; j++) {
                    int k = i * sites + j;
                    long at = t + (k * interval) / level.length;
                    if ((at - T0) % HOUR < interval) {
                        out.add(trace(i, j, at).toString());
                    }
                    out.add(run(i, j, at + 1000, level[k], noiseOnset[k]).toString());
                }
            }
        }
        return out;
    }

    private ObjectNode trace(int i, int j, long ts) {
        List<List<String>> path = new ArrayList<>();
        for (String h : hops(i, j)) {
            path.add(rnd.nextDouble() < 0.05 ? java.util.Arrays.asList((String) null) : List.of(h));
        }
        path.add(List.of("10." + (100 + j) + ".0.9"));
        ObjectNode n = Samples.path(src(i), site(j), ts, true, 150, path);
        for (var hop : n.withArray("hops")) {
            String addr = hop.get("probes").get(0).path("addr").asText(null);
            if (addr != null && asn(addr) > 0) {
                ((ObjectNode) hop.get("probes").get(0)).put("asn", asn(addr));
            }
        }
        return n;
    }

    private ObjectNode run(int i, int j, long ts, double mbps, long noiseAt) {
        String l = link(i, j);
        String runId = "r-" + i + "-" + j + "-" + ts;
        for (Fault f : faults) {
            if (ts >= f.onset() && ts < f.end() && f.links().contains(l)) {
                return f.down()
                        ? Samples.failed(src(i), site(j), runId, ts, "timeout")
                        : Samples.summary(src(i), site(j), runId, ts, mbps * 1e6 * 0.15);
            }
        }
        double v = mbps * 1e6 * (1 + 0.15 * (2 * rnd.nextDouble() - 1));
        if (noiseAt > 0 && ts >= noiseAt && ts < noiseAt + 3 * HOUR) {
            v *= 0.15;
        }
        return Samples.summary(src(i), site(j), runId, ts, v);
    }
}
