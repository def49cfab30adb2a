package org.longhaul.flink.functions.stats;

/** A finished window of one link and protocol: its bounds, its label (1m/1h/1d) and accumulator. */
public record WindowedStats(
        String key, String window, long windowStart, long windowEnd, LinkAccumulator accumulator) {}
