package org.longhaul.flink.functions.confirm;

/**
 * Per link state of {@link ConfirmationPlanner}: the throughput probe it last ran, the times of
 * its recent requests (the link's budget) and the request on its way. A Flink POJO.
 */
public final class PlannerState {
    public String probeId;
    public long[] requested = new long[0];
    public String pendingId;
    public long pendingTs;
    public long pendingExpires;
}
