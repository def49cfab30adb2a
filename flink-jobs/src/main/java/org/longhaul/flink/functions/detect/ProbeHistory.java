package org.longhaul.flink.functions.detect;

/**
 * Per probe of a link: recent run throughputs (the capacity reference), the current cause and a
 * cause waiting for confirmation. A Flink POJO.
 */
public final class ProbeHistory {
    public double[] recent = new double[0];
    public String cause;
    public String pending;
    public int pendingRuns;

    public static boolean limiting(String cause) {
        return "window_limited".equals(cause) || "loss_limited".equals(cause);
    }

    /**
     * Takes one run's cause; returns true when it becomes the reported cause with an event. A
     * limiting cause (window, loss: bounds computed from the run itself) is reported at once. Leaving
     * a limiting cause needs confirmRuns consecutive runs agreeing on the new cause. Between
     * capacity and unknown, which noise alone alternates on a healthy link, nothing is reported.
     */
    public boolean observe(String c, int confirmRuns) {
        if (c.equals(cause)) {
            pending = null;
            pendingRuns = 0;
            return false;
        }
        if (!limiting(cause)) {
            cause = c;
            return limiting(c);
        }
        pendingRuns = c.equals(pending) ? pendingRuns + 1 : 1;
        pending = c;
        if (pendingRuns < confirmRuns) {
            return false;
        }
        cause = c;
        pending = null;
        pendingRuns = 0;
        return true;
    }

    public double best() {
        double best = 0;
        for (double v : recent) {
            best = Math.max(best, v);
        }
        return best;
    }
}
