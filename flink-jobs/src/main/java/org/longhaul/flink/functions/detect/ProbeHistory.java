package org.longhaul.flink.functions.detect;

import org.longhaul.flink.records.DiagnosisCause;

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
        DiagnosisCause c = DiagnosisCause.ofWire(cause);
        return DiagnosisCause.V1_WINDOW_LIMITED.equals(cause) || c != null && c.limiting();
    }

    /**
     * Takes one run's cause; returns true when it becomes the reported cause with an event. A
     * limiting cause (window, loss: bounds computed from the run itself) is reported at once.
     * Leaving a limiting cause needs confirmRuns consecutive runs agreeing on the new cause.
     * Between capacity and unknown, which noise alone alternates on a healthy link, nothing is
     * reported.
     */
    public boolean observe(String c, int confirmRuns) {
        if (DiagnosisCause.V1_WINDOW_LIMITED.equals(cause)
                && DiagnosisCause.ofWire(c) != null
                && DiagnosisCause.ofWire(c).window()) {
            cause = c; // state of a job before event.v2: the same window limit, now named finer
        }
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
