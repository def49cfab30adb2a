package org.longhaul.flink.records;

import java.util.Locale;

/**
 * What limits a TCP run, as a diagnosis event's {@code cause} names it (event.v2's cause enum,
 * which ContractNamesTest keeps equal to this).
 */
public enum DiagnosisCause {
    /** The window the probe asked for (iperf3 -w). */
    SENDER_WINDOW_LIMITED,
    /** The window the receiver advertised (iperf3 snd_wnd): the far end's receive buffer. */
    RECEIVER_WINDOW_LIMITED,
    /** The sending host's buffer maxima: net.core.wmem_max, or autotuning's max of tcp_wmem. */
    HOST_TUNING_LIMITED,
    /** The Mathis bound of the measured loss and RTT. */
    LOSS_LIMITED,
    /** At the link's capacity. */
    CAPACITY,
    /** None of these explains the run. */
    UNKNOWN;

    /** event.v1's one window cause, which v2 split into the three above; found in older state. */
    public static final String V1_WINDOW_LIMITED = "window_limited";

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** A window cause: a bound computed from the run's window and RTT. */
    public boolean window() {
        return this == SENDER_WINDOW_LIMITED
                || this == RECEIVER_WINDOW_LIMITED
                || this == HOST_TUNING_LIMITED;
    }

    /** A bound computed from the run itself (a window, the loss), reported at once. */
    public boolean limiting() {
        return window() || this == LOSS_LIMITED;
    }

    /** The cause of a wire name; null for null or a name it does not have (v1's window_limited). */
    public static DiagnosisCause ofWire(String wire) {
        for (DiagnosisCause c : values()) {
            if (c.wire().equals(wire)) {
                return c;
            }
        }
        return null;
    }
}
