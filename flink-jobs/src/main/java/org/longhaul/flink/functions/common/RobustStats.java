package org.longhaul.flink.functions.common;

import java.util.Arrays;

/** Median and median absolute deviation: a baseline that a few outliers cannot drag. */
public final class RobustStats {
    /** MAD × 1.4826 estimates σ for normally distributed data. */
    public static final double MAD_TO_SIGMA = 1.4826;

    private RobustStats() {}

    public static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }

    /** Robust σ: 1.4826 × median(|x − median|). */
    public static double sigma(double[] values) {
        double m = median(values);
        double[] dev = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            dev[i] = Math.abs(values[i] - m);
        }
        return MAD_TO_SIGMA * median(dev);
    }

    /** {@code values} with {@code x} appended, keeping only the newest {@code max}. */
    public static double[] append(double[] values, double x, int max) {
        int keep = Math.min(values.length, max - 1);
        double[] out = new double[keep + 1];
        System.arraycopy(values, values.length - keep, out, 0, keep);
        out[keep] = x;
        return out;
    }

    /**
     * {@code x} put before {@code values} as their oldest, when there is room for it (fewer than
     * {@code max}); else {@code values} unchanged. Backfilled runs, sent newest first, fill a
     * history from the recent end back, and never push out what was measured live.
     */
    public static double[] prepend(double[] values, double x, int max) {
        if (values.length >= max) {
            return values;
        }
        double[] out = new double[values.length + 1];
        out[0] = x;
        System.arraycopy(values, 0, out, 1, values.length);
        return out;
    }
}
