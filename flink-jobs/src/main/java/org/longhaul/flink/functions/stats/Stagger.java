package org.longhaul.flink.functions.stats;

import java.io.Serializable;
import java.time.Duration;

/**
 * Where each key's windows start within a minute. Aligned windows make every link's 1m window end
 * at the same minute boundary, so the job emits links × protocols statistics at once and the sink
 * takes the burst in seconds (20,000 at 10k links: a p99 of 5.5 s from window end to InfluxDB,
 * docs/benchmarks-log.md). Staggered, each key's windows are shifted by a whole number of seconds
 * below the spread, fixed by the key: the burst becomes a stream (at 10k links, ~330 statistics a
 * second), while a key's 1m, 1h and 1d windows keep the same offset, so a day still folds exactly
 * 24 of its hours and an hour 60 of its minutes.
 *
 * <p>The offset depends only on the key's text, so it survives restarts, rescaling and upgrades.
 */
public record Stagger(Duration spread) implements Serializable {
    public Stagger {
        if (spread.isNegative() || spread.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException(
                    "--stats-stagger: between 0s (aligned) and 1min, not " + spread);
        }
    }

    /** Windows aligned on the epoch, every key's at the same instants. */
    public static Stagger aligned() {
        return new Stagger(Duration.ZERO);
    }

    /** This key's offset in ms: whole seconds in [0, spread), the same for every window size. */
    public long offsetMs(String key) {
        long seconds = spread.toSeconds();
        if (seconds <= 1) {
            return 0;
        }
        return Math.floorMod(mix(key.hashCode()), seconds) * 1000L;
    }

    /** Murmur3's finaliser: neighbouring keys ("dst-1", "dst-2") land far apart. */
    private static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }
}
