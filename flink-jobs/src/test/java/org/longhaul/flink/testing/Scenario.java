package org.longhaul.flink.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Builds a replay input: JSON Lines of raw samples in the order a collector would publish them (a
 * run's summary and intervals when the run ends). Deterministic noise from a seeded Random.
 */
public final class Scenario {
    private final List<String> lines = new ArrayList<>();
    private final Random rnd;

    public Scenario(long seed) {
        this.rnd = new Random(seed);
    }

    /**
     * A TCP run of 1-second intervals at about {@code mbps} (± {@code noise} relative), with its
     * summary.
     */
    public Scenario tcpRun(String src, String dst, long start, double mbps, double noise) {
        String runId = "r-" + src + "-" + start;
        double level = mbps * 1e6 * (1 + noise * (2 * rnd.nextDouble() - 1));
        lines.addAll(
                Samples.tcpRun(
                        src,
                        dst,
                        runId,
                        start,
                        level,
                        s -> level * (0.95 + 0.1 * rnd.nextDouble())));
        return this;
    }

    public Scenario ping(String src, String dst, long ts, double rttMs) {
        lines.add(
                Samples.ping(src, dst, ts, 10, 10, rttMs * (1 + 0.01 * rnd.nextDouble()), 0.4)
                        .toString());
        return this;
    }

    public Scenario latency(String src, String dst, long ts, int lost, double owdMs) {
        lines.add(Samples.latency(src, dst, ts, 600, lost, owdMs).toString());
        return this;
    }

    public Scenario trace(String src, String dst, long ts, double rttMs, List<List<String>> hops) {
        lines.add(Samples.path(src, dst, ts, true, rttMs, hops).toString());
        return this;
    }

    public Scenario add(ObjectNode sample) {
        lines.add(sample.toString());
        return this;
    }

    public Scenario line(String raw) {
        lines.add(raw);
        return this;
    }

    public double uniform() {
        return rnd.nextDouble();
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }
}
