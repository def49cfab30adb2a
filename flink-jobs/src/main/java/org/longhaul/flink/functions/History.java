package org.longhaul.flink.functions;

/**
 * Backfilled samples ({@code longhaul import}, the contract's history header) in the live job.
 * Months of old samples must neither be dropped as late nor make live samples late, nor alert:
 * <ul>
 *   <li>they have no place in event time: their record timestamp is {@link #TIMESTAMP} (Flink's
 *       "no timestamp"), so they never move a watermark ({@link TimedEventsOnly}) and no window
 *       counts them;</li>
 *   <li>{@link ValidateFunction} sends them to a side output of their own, so no detector but the
 *       ones that learn from history sees them;</li>
 *   <li>the throughput collapse detector, the one baseline that takes days to learn at a
 *       production cadence (a run every 4 h), learns from them without judging them. Traces and
 *       pings come every few minutes: their baselines learn live within the hour.</li>
 * </ul>
 * The sample keeps its own {@code ts}; only its place in the stream's event time is withheld.
 */
public final class History {
    /** The record timestamp of a backfilled sample. */
    public static final long TIMESTAMP = Long.MIN_VALUE;

    private History() {}

    /** Whether a record with this timestamp is a backfilled sample (only those reach detectors without one). */
    public static boolean is(long recordTimestamp) {
        return recordTimestamp == TIMESTAMP;
    }
}
