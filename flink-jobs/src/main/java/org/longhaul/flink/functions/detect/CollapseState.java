package org.longhaul.flink.functions.detect;

/**
 * Per series state of {@link ThroughputCollapseDetector}: the healthy history (at most
 * {@link CollapseParams#history()} doubles), the pending low runs and the open episode with the
 * baseline frozen when it opened. A Flink POJO; about 50 + 8·history bytes.
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
}
