package org.longhaul.flink.functions.detect;

/** Per probe of a link: recent run throughputs (the capacity reference) and the last cause reported. A Flink POJO. */
public final class ProbeHistory {
    public double[] recent = new double[0];
    public String cause;

    public double best() {
        double best = 0;
        for (double v : recent) {
            best = Math.max(best, v);
        }
        return best;
    }
}
