package org.longhaul.flink.functions;

import java.io.Serializable;
import java.time.Duration;
import java.util.Locale;
import org.longhaul.flink.records.ContractNames;
import org.longhaul.flink.records.RawMessage;

/**
 * Whether the clock a raw message was stamped by is too far from the broker's, the one clock no
 * agent controls. A sample's {@code ts} is its agent's clock, and the job's event time: one agent
 * an hour ahead pushes the watermark of a shared partition an hour ahead and every other link's
 * samples become late; one behind holds windows back by its lag. Such samples go to the dead
 * letters (ValidateFunction) and never move the watermark (RawTimestamps).
 *
 * <p>The rule, with tolerance T ({@code --clock-skew-tolerance}, the contract's
 * clock_skew_tolerance_s by default):
 *
 * <ul>
 *   <li>no broker time (replay, bounded sources, a CreateTime topic): nothing is judged;
 *   <li>with the agent's send time (header sent_ms, stamped at each produce attempt): skewed when
 *       |sent − broker| &gt; T, ahead or behind. A sample spooled through an outage is stamped when
 *       it is finally sent, so its wait is not taken for a slow clock;
 *   <li>whatever the header says, a {@code ts} more than T ahead of the broker is skewed: no sample
 *       can be measured after it reached the broker (without the header this is the only judgement
 *       possible: an old {@code ts} may be a late delivery, not a slow clock).
 * </ul>
 */
public final class ClockSkew implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The start of every dead letter's reason this rule writes. */
    public static final String REASON = "clock_skew";

    private final long toleranceMs;

    public ClockSkew(Duration tolerance) {
        if (tolerance.isNegative()) {
            throw new IllegalArgumentException(
                    "clock skew tolerance must not be negative: " + tolerance);
        }
        this.toleranceMs = tolerance.toMillis();
    }

    /** The contract's tolerance, clock_skew_tolerance_s. */
    public static Duration contractTolerance() {
        return Duration.ofMillis(Math.round(ContractNames.CLOCK_SKEW_TOLERANCE_S * 1000));
    }

    /**
     * What is wrong with the message's clock, or null when nothing is (or nothing can be judged).
     */
    public Skew judge(RawMessage m) {
        if (m.brokerMs() == null) {
            return null;
        }
        if (m.sentMs() != null && Math.abs(m.sentMs() - m.brokerMs()) > toleranceMs) {
            return new Skew(Basis.SENT, m.sentMs() - m.brokerMs(), toleranceMs);
        }
        if (m.eventTs() != null && m.eventTs() - m.brokerMs() > toleranceMs) {
            return new Skew(
                    m.sentMs() == null ? Basis.TS_NO_HEADER : Basis.TS,
                    m.eventTs() - m.brokerMs(),
                    toleranceMs);
        }
        return null;
    }

    /** True when the message's clock is judged skewed. */
    public boolean skewed(RawMessage m) {
        return judge(m) != null;
    }

    /** Which clock of the message the judgement read. */
    public enum Basis {
        /** the agent's send time (header sent_ms) */
        SENT,
        /** the sample's ts, ahead although the send time is within the tolerance */
        TS,
        /** the sample's ts, the message having no send time */
        TS_NO_HEADER
    }

    /**
     * A skewed clock: how far ahead of the broker's (negative: behind), by which clock of the
     * message, against which tolerance.
     */
    public record Skew(Basis basis, long aheadMs, long toleranceMs) {

        /**
         * The dead letter's reason: "clock_skew: the agent's clock is 3600.0 s ahead of the
         * broker's (tolerance 30 s)".
         */
        public String reason() {
            String by =
                    String.format(
                            Locale.ROOT,
                            "%.1f s %s",
                            Math.abs(aheadMs) / 1000.0,
                            aheadMs > 0 ? "ahead of" : "behind");
            String tolerance = "tolerance " + seconds(toleranceMs) + " s";
            return REASON
                    + ": "
                    + switch (basis) {
                        case SENT ->
                                "the agent's clock is " + by + " the broker's (" + tolerance + ")";
                        case TS ->
                                "the sample's ts is "
                                        + by
                                        + " the broker's clock, its send time is not ("
                                        + tolerance
                                        + ")";
                        case TS_NO_HEADER ->
                                "the sample's ts is "
                                        + by
                                        + " the broker's clock ("
                                        + tolerance
                                        + "; no "
                                        + ContractNames.HEADER_SENT_MS
                                        + " header to tell the agent's clock)";
                    };
        }

        private static String seconds(long ms) {
            return ms % 1000 == 0
                    ? Long.toString(ms / 1000)
                    : String.format(Locale.ROOT, "%.3f", ms / 1000.0);
        }
    }
}
