package org.longhaul.flink.functions.detect;

import java.io.Serializable;
import java.time.Duration;

/**
 * Stall detection inside one run.
 *
 * @param minSeconds consecutive seconds of (near) zero throughput that make a stall (10 s)
 * @param zeroBps an interval at or below this rate counts as zero (8000 bit/s = 1 kB/s)
 * @param zeroFraction ...or at or below this fraction of the run's peak so far (1 %)
 * @param runIdle the run's state is dropped this long (event time) after its last interval (10 min)
 */
public record StallParams(double minSeconds, double zeroBps, double zeroFraction, Duration runIdle)
        implements Serializable {

    public static StallParams defaults() {
        return new StallParams(10, 8000, 0.01, Duration.ofMinutes(10));
    }
}
