package org.longhaul.flink.functions;

import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * How many links one src may report on in one raw stream: distinct dsts seen within {@code
 * forgetAfter}. Every new dst is new series in InfluxDB (about 20 a link), and InfluxDB refuses
 * everyone's writes once its series limit is reached: without a cap, one identity's invented dsts
 * could stop the whole fleet's statistics. A sample for a dst beyond the cap is a dead letter
 * (reason {@value #REASON}); a dst silent for {@code forgetAfter} makes room for another, so a host
 * moved to another mesh keeps reporting.
 *
 * <p>Counted by each validating subtask in memory, not in checkpointed state: after a restart the
 * counts start again, and a src whose topic's partitions are read by n subtasks may open up to n
 * times the cap. The bound holds at every moment, which is what InfluxDB's limit needs. A writer of
 * many srcs (the pScheduler bridge on the shared raw topics) is bounded per src.
 */
public final class LinkCap implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The start of every dead letter's reason this rule writes. */
    public static final String REASON = "too_many_links";

    /** How often, at most, one src's links are swept for silent ones once it is at its cap. */
    static final long SWEEP_EVERY_MS = 60_000;

    /** A dst's time is refreshed at most this often (most samples change nothing). */
    static final long TOUCH_EVERY_MS = 60_000;

    private final int maxPerSrc;
    private final long forgetAfterMs;

    public LinkCap(int maxPerSrc, Duration forgetAfter) {
        if (maxPerSrc < 1) {
            throw new IllegalArgumentException("links per src must be 1 or more: " + maxPerSrc);
        }
        if (forgetAfter.isNegative() || forgetAfter.isZero()) {
            throw new IllegalArgumentException("forget-after must be positive: " + forgetAfter);
        }
        this.maxPerSrc = maxPerSrc;
        this.forgetAfterMs = forgetAfter.toMillis();
    }

    /**
     * 1,000 links a src, forgotten after 7 days' silence: a WLCG host is in a few meshes of about
     * 30, and the slowest cadence (throughput every 6 h, 3 h of slip) reports each dst daily.
     */
    public static LinkCap defaults() {
        return new LinkCap(1000, Duration.ofDays(7));
    }

    public int maxPerSrc() {
        return maxPerSrc;
    }

    public Duration forgetAfter() {
        return Duration.ofMillis(forgetAfterMs);
    }

    /** A subtask's count, empty. */
    public Budget budget() {
        return new Budget();
    }

    /** One subtask's links per src, as last seen (processing time). */
    public final class Budget {
        private final Map<String, Links> bySrc = new HashMap<>();

        private Budget() {}

        /** Null when src may report on dst at now (counting it), else the dead letter's reason. */
        public String admit(String src, String dst, long now) {
            Links links = bySrc.computeIfAbsent(src, s -> new Links());
            Long last = links.seen.get(dst);
            if (last != null) {
                if (now - last >= TOUCH_EVERY_MS) {
                    links.seen.put(dst, now);
                }
                return null;
            }
            if (links.seen.size() >= maxPerSrc && now - links.sweptAt >= SWEEP_EVERY_MS) {
                links.sweptAt = now;
                links.seen.values().removeIf(t -> now - t > forgetAfterMs);
            }
            if (links.seen.size() >= maxPerSrc) {
                return REASON
                        + ": src \""
                        + src
                        + "\" already reports on "
                        + links.seen.size()
                        + " dsts in this stream, the most one src may (--max-links-per-src "
                        + maxPerSrc
                        + "); a dst silent for "
                        + forgetAfter()
                        + " makes room";
            }
            links.seen.put(dst, now);
            return null;
        }
    }

    private static final class Links {
        final Map<String, Long> seen = new HashMap<>();
        long sweptAt = Long.MIN_VALUE / 2;
    }
}
