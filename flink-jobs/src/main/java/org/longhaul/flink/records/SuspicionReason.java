package org.longhaul.flink.records;

import java.util.Locale;

/** Why a link is suspect: probe_request's reason enum (ContractNamesTest keeps them equal). */
public enum SuspicionReason {
    /** A run below the baseline that does not yet make a collapse. */
    THROUGHPUT_LOW,
    /** A run back at the baseline during a collapse, not yet enough to end it. */
    THROUGHPUT_RECOVERING,
    /** The dominant path changed (a route_change event). */
    ROUTE_CHANGE,
    /** The link's ping RTT rose above its own recent level. */
    RTT_SHIFT,
    /** Packet loss at the alarm level (a high_loss event). */
    LOSS,
    /** The sender's TCP buffers or congestion control changed. */
    HOST_TUNING_CHANGE,
    /** One direction's one-way delay (pScheduler latency) rose above its own recent level. */
    OWD_SHIFT;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
