package org.longhaul.flink.functions.detect;

/**
 * Per series state of {@link ThroughputCollapseDetector}: the healthy history (at most {@link
 * CollapseParams#history()} doubles), the pending low runs and the open episode with the baseline
 * frozen when it opened. A Flink POJO; about 70 + 8·history bytes, and 8·history more with
 * screening bursts.
 */
public final class CollapseState {
    public double[] history = new double[0];
    public int lowRuns;
    public double lowSum;
    public long firstLowTs;
    public boolean inEpisode;
    public String episodeId;
    public long episodeStart;
    public double baseline;
    public double baselineSigma;
    public int episodeRuns;
    public double[] recovering = new double[0];

    /**
     * The screening bursts' own healthy history ({@link Screening}): null in state written before
     * bursts were judged, and for a series that has none.
     */
    public double[] screenHistory;

    /**
     * What the latest screening burst said ({@link Screening#LOW}, {@link Screening#BACK}), until a
     * run of the series takes it.
     */
    public int screenVerdict;

    /** When that burst ran. */
    public long screenTs;

    /**
     * A screening burst counts in the pending trigger: the low runs before a collapse, or the runs
     * back during one.
     */
    public boolean screenCounted;

    /**
     * A catastrophic run waits for its confirming run until then (event time; 0: none waits):
     * {@link ThroughputCollapseDetector} pages then if no run came.
     */
    public long awaitUntil;

    /** The waiting run's protocol (the key names src, dst and probe). */
    public String awaitProtocol;
}
