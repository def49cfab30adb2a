package org.longhaul.flink.functions.confirm;

/**
 * Per link state of {@link ConfirmationPlanner}: the throughput probe it last ran, the times of its
 * recent requests (the link's budget), the request on its way and a suspicion waiting for the
 * link's probe. A Flink POJO.
 */
public final class PlannerState {
    public String probeId;
    public long[] requested = new long[0];
    public String pendingId;
    public String pendingProbe;
    public long pendingTs;
    public long pendingExpires;

    /** A collapse of the link is open: only a run that could end it is worth asking for. */
    public boolean collapsed;

    /** When the link's spent budget was last reported: once per budget window is enough. */
    public long reportedSpent = Long.MIN_VALUE;

    /**
     * A suspicion that came before any run of the link had named its probe (JSON of the {@link
     * org.longhaul.flink.records.Suspicion}, null when none): the run earlier in event time may
     * still be on its way from another topic ({@link ConfirmationPlanner#release}).
     */
    public String held;
}
