package org.longhaul.flink.functions.confirm;

import org.longhaul.flink.records.SuspicionReason;

/** What a {@link DelayShiftDetector} watches: the words of its suspicion and its state's name. */
public enum DelayKind {
    /** The ping RTT of a link (state "rtt-shift", as before one-way delays were judged). */
    RTT(
            "rtt-shift",
            SuspicionReason.RTT_SHIFT,
            "ping RTT",
            "pings",
            "link's",
            "rtt_ms",
            "rtt_level_ms"),
    /** The one-way delay of one direction (pScheduler latency, latencybg). */
    OWD(
            "owd-shift",
            SuspicionReason.OWD_SHIFT,
            "one-way delay",
            "runs",
            "direction's",
            "owd_ms",
            "owd_level_ms");

    final String state;
    final SuspicionReason reason;
    final String what;
    final String readings;
    final String whose;
    final String valueKey;
    final String levelKey;

    DelayKind(
            String state,
            SuspicionReason reason,
            String what,
            String readings,
            String whose,
            String valueKey,
            String levelKey) {
        this.state = state;
        this.reason = reason;
        this.what = what;
        this.readings = readings;
        this.whose = whose;
        this.valueKey = valueKey;
        this.levelKey = levelKey;
    }
}
