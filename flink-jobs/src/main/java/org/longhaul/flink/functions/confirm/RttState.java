package org.longhaul.flink.functions.confirm;

/**
 * Per link state of {@link DelayShiftDetector}: recent delays (ping RTTs or one-way delays), the
 * run of high ones, whether reported. A Flink POJO; its name stays what savepoints know it by.
 */
public final class RttState {
    public double[] recent = new double[0];
    public int high;
    public boolean shifted;
}
