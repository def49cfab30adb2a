package org.longhaul.flink.functions.stats;

/**
 * A finished window of one link and protocol: its bounds, its label (1m/1h/1d), its accumulator,
 * and which {@link Part} of the window it is: the window whole (written and rolled up), a
 * correction (what reached a minute after its link's clock had closed it, see {@link LinkClock}:
 * rolled up alone), or the minute rewritten with it (written, not rolled up again).
 */
public record WindowedStats(
        String key,
        String window,
        long windowStart,
        long windowEnd,
        LinkAccumulator accumulator,
        Part part) {

    /** Which part of its window a {@link WindowedStats} is, and where it goes. */
    public enum Part {
        /** The window as it closed: written as its point, and folded into the coarser windows. */
        WHOLE,
        /** Only what came after the window closed: folded into the coarser windows, not written. */
        CORRECTION,
        /** The window with its corrections: written over its point, not folded again. */
        REWRITE;

        /** Whether the window's point in InfluxDB is (re)written from it. */
        public boolean written() {
            return this != CORRECTION;
        }

        /** Whether the hour (and so the day) folds it in. */
        public boolean rolledUp() {
            return this != REWRITE;
        }
    }
}
