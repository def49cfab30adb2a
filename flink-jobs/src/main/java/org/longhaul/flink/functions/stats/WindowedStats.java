package org.longhaul.flink.functions.stats;

/**
 * A finished window of one link and protocol: its bounds, its label (1m/1h/1d) and accumulator. A
 * correction holds only what reached the window after it had fired (see {@link LinkClock}): the
 * coarser windows fold it in, the window's own point is not rewritten.
 */
public record WindowedStats(
        String key,
        String window,
        long windowStart,
        long windowEnd,
        LinkAccumulator accumulator,
        boolean correction) {}
