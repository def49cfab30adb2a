package org.longhaul.flink.functions.confirm;

/**
 * Per link state of {@link RttShiftDetector}: recent ping RTTs, the run of high ones, whether
 * reported. A Flink POJO.
 */
public final class RttState {
    public double[] recent = new double[0];
    public int high;
    public boolean shifted;
}
