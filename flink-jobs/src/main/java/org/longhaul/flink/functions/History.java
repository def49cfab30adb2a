package org.longhaul.flink.functions;

/**
 * Backfilled samples ({@code longhaul import}, read from a history topic) in the live job. Months
 * of old samples must neither be dropped as late nor make live samples late, nor alert:
 *
 * <ul>
 *   <li>they have no place in event time: their record timestamp is {@link #TIMESTAMP} (Flink's "no
 *       timestamp"), so they never move a watermark ({@link TimedEventsOnly}) and no window counts
 *       them;
 *   <li>{@link LiveOnly} drops them from the streams windows and detectors read; the ones that
 *       learn from history read the validated stream itself, where backfilled and live samples keep
 *       their order in the partition (a side output would reach a keyed operator on another
 *       channel, and a live run could overtake the history it is to be judged against);
 *   <li>the throughput collapse detector, the one baseline that takes days to learn at a production
 *       cadence (a run every 4 h), learns from them without judging them. Traces and pings come
 *       every few minutes: their baselines learn live within the hour.
 * </ul>
 *
 * The sample keeps its own {@code ts}; only its place in the stream's event time is withheld.
 */
public final class History {
    /** The record timestamp of a backfilled sample. */
    public static final long TIMESTAMP = Long.MIN_VALUE;

    private History() {}

    /** Whether a record with this timestamp (null: none) is a backfilled sample. */
    public static boolean is(Long recordTimestamp) {
        return recordTimestamp != null && recordTimestamp == TIMESTAMP;
    }
}
