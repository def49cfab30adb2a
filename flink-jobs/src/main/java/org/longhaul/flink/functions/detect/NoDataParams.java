package org.longhaul.flink.functions.detect;

import java.io.Serializable;
import java.time.Duration;

/**
 * Silence of a probe that used to report.
 *
 * @param factor silent for more than factor × the usual gap (3)
 * @param minGaps gaps observed before the usual gap is trusted (3)
 * @param gapHistory recent gaps whose median is the usual gap (16)
 * @param defaultInterval expected interval before enough gaps are seen; zero = wait to learn (0)
 * @param minSilence never alarm on a silence shorter than this (5 min)
 */
public record NoDataParams(
        double factor, int minGaps, int gapHistory, Duration defaultInterval, Duration minSilence)
        implements Serializable {

    public static NoDataParams defaults() {
        return new NoDataParams(3, 3, 16, Duration.ZERO, Duration.ofMinutes(5));
    }
}
