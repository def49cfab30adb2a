package org.longhaul.flink.functions.detect;

/**
 * Per probe of a link: last report, recent gaps between reports, the armed deadline, the open
 * silence. A Flink POJO.
 */
public final class SilenceState {
    public long lastTs = Long.MIN_VALUE;
    public double[] gapsMs = new double[0];
    public long deadline = Long.MIN_VALUE;
    public double expectedMs;
    public boolean silent;
    public String episodeId;
    public String kind;
}
