package org.longhaul.flink.functions.stats;

import java.util.Arrays;

/**
 * A mergeable quantile sketch with relative accuracy (DDSketch-style log buckets): a value x > 1
 * falls into bucket ceil(log_γ x) with γ = (1+α)/(1−α), α = 2 %, so every quantile it returns is
 * within 2 % of a true sample value. Values ≤ 1 (zero throughput) are counted apart. At most {@link
 * #MAX_BINS} buckets are kept (the lowest are folded together beyond that): 160 buckets span a 600×
 * range at full accuracy and weigh at most 160 × 8 bytes. A Flink POJO.
 */
public final class QuantileSketch {
    public static final double ALPHA = 0.02;
    public static final int MAX_BINS = 160;
    private static final double GAMMA = (1 + ALPHA) / (1 - ALPHA);
    private static final double LN_GAMMA = Math.log(GAMMA);

    public int[] keys = new int[0];
    public int[] counts = new int[0];
    public int size;
    public long zeros;

    public void add(double x) {
        if (!(x > 1.0)) {
            zeros++;
            return;
        }
        addToBucket((int) Math.ceil(Math.log(x) / LN_GAMMA), 1);
    }

    public void merge(QuantileSketch other) {
        zeros += other.zeros;
        for (int i = 0; i < other.size; i++) {
            addToBucket(other.keys[i], other.counts[i]);
        }
    }

    public long count() {
        long n = zeros;
        for (int i = 0; i < size; i++) {
            n += counts[i];
        }
        return n;
    }

    /** The q-quantile (0 ≤ q ≤ 1) by the lower-rank convention; NaN when empty. */
    public double quantile(double q) {
        long n = count();
        if (n == 0) {
            return Double.NaN;
        }
        long rank = (long) Math.floor(q * (n - 1));
        if (rank < zeros) {
            return 0.0;
        }
        long seen = zeros;
        for (int i = 0; i < size; i++) {
            seen += counts[i];
            if (rank < seen) {
                return 2 * Math.pow(GAMMA, keys[i]) / (GAMMA + 1);
            }
        }
        return 2 * Math.pow(GAMMA, keys[size - 1]) / (GAMMA + 1);
    }

    /** Bytes the buckets take in state (two ints each) plus the zero counter. */
    public int stateBytes() {
        return size * 8 + 8;
    }

    private void addToBucket(int key, int count) {
        int at = Arrays.binarySearch(keys, 0, size, key);
        if (at >= 0) {
            counts[at] += count;
            return;
        }
        int ins = -at - 1;
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size + 8); // small steps: state stores the whole array
            counts = Arrays.copyOf(counts, keys.length);
        }
        System.arraycopy(keys, ins, keys, ins + 1, size - ins);
        System.arraycopy(counts, ins, counts, ins + 1, size - ins);
        keys[ins] = key;
        counts[ins] = count;
        size++;
        if (size > MAX_BINS) {
            foldLowest();
        }
    }

    private void foldLowest() {
        counts[1] += counts[0];
        System.arraycopy(keys, 1, keys, 0, size - 1);
        System.arraycopy(counts, 1, counts, 0, size - 1);
        size--;
    }
}
