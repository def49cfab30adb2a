package org.longhaul.flink.functions.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class QuantileSketchTest {

    private static double exact(double[] sorted, double q) {
        return sorted[(int) Math.floor(q * (sorted.length - 1))];
    }

    @Test
    void quantilesAreWithinTheRelativeAccuracyOfTheTrueValues() {
        Random rnd = new Random(7);
        double[] values = new double[5000];
        QuantileSketch sketch = new QuantileSketch();
        for (int i = 0; i < values.length; i++) {
            values[i] = 557e6 * (0.7 + 0.6 * rnd.nextDouble());
            sketch.add(values[i]);
        }
        Arrays.sort(values);
        for (double q : new double[] {0.1, 0.5, 0.9}) {
            double truth = exact(values, q);
            assertEquals(truth, sketch.quantile(q), truth * QuantileSketch.ALPHA * 1.01, "q=" + q);
        }
        assertTrue(sketch.size < 40, "±30% noise needs few buckets, got " + sketch.size);
    }

    @Test
    void mergingTwoSketchesEqualsSketchingEverything() {
        QuantileSketch a = new QuantileSketch();
        QuantileSketch b = new QuantileSketch();
        QuantileSketch all = new QuantileSketch();
        for (int i = 1; i <= 1000; i++) {
            double v = 20e6 + i * 1e4;
            (i % 2 == 0 ? a : b).add(v);
            all.add(v);
        }
        a.merge(b);
        assertEquals(all.count(), a.count());
        for (double q : new double[] {0.1, 0.5, 0.9}) {
            assertEquals(all.quantile(q), a.quantile(q));
        }
    }

    @Test
    void zeroThroughputIsCountedApartAndReportedAsZero() {
        QuantileSketch s = new QuantileSketch();
        for (int i = 0; i < 8; i++) {
            s.add(0);
        }
        s.add(39.6e6);
        s.add(13.2e6);
        assertEquals(0.0, s.quantile(0.5));
        assertEquals(39.6e6, s.quantile(1.0), 39.6e6 * 0.02);
    }

    @Test
    void bucketsStayBoundedOverAHugeRange() {
        QuantileSketch s = new QuantileSketch();
        for (double v = 2; v < 1e11; v *= 1.01) {
            s.add(v);
        }
        assertEquals(QuantileSketch.MAX_BINS, s.size);
        assertTrue(s.stateBytes() <= QuantileSketch.MAX_BINS * 8 + 8);
        assertEquals(1e11, s.quantile(1.0), 1e11 * 0.03);
    }
}
