package org.longhaul.flink.functions.detect;

/**
 * Per link state of {@link RouteChangeDetector}: the dominant path, the candidate path of the
 * current streak of runs off it, and a bit history of recent runs (1 = on the dominant path, newest
 * in bit 0). A Flink POJO: two {@link PathModel}s, typically 0.5–2 KB.
 */
public final class RouteState {
    public PathModel dominant;
    public PathModel candidate;
    public int candidateRuns;
    public long recent;
    public int recentCount;

    public void push(boolean onDominant, int window) {
        recent = (recent << 1) | (onDominant ? 1 : 0);
        recentCount = Math.min(recentCount + 1, window);
    }

    /** Recent runs before the current streak. */
    public int runsBeforeStreak() {
        return recentCount - candidateRuns;
    }

    /**
     * Share of the recent runs before the current streak that followed the dominant path; NaN
     * without any.
     */
    public double dominantShareBeforeStreak() {
        int before = runsBeforeStreak();
        if (before <= 0) {
            return Double.NaN;
        }
        long bits = (recent >>> candidateRuns) & ((1L << before) - 1);
        return Long.bitCount(bits) / (double) before;
    }
}
