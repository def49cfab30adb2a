package org.longhaul.flink.functions.detect;

import org.longhaul.flink.functions.common.Fmt;
import org.longhaul.flink.records.DiagnosisCause;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventBuilder;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.HostSnapshot;

/**
 * The cause behind one TCP run's throughput, in this order:
 *
 * <ol>
 *   <li>a window: throughput ≈ streams × window / RTT (±tolerance), and that bound is below the
 *       link's capacity when one is configured. The window is the smaller of the probing host's and
 *       the receiver's ({@link TcpWindow}), and its origin names the cause: sender_window_limited
 *       for the requested window_bytes (iperf3 -w); host_tuning_limited when
 *       net.core.wmem_max/rmem_max caps it or, none requested, the autotuning maximum of
 *       net.ipv4.tcp_wmem (tcp_rmem for a reverse run); receiver_window_limited for the window the
 *       receiver advertised (snd_wnd), when smaller than the sender's by more than the tolerance.
 *       RTT from the summary, else the latest ping. The message names the setting to raise and the
 *       host it is on and, when the capacity is known ({@link LinkCapacity}: configured, or the
 *       best run when that is above the bound), the window that would fill it at the measured RTT.
 *   <li>capacity: throughput ≥ capacityRatio × the best of the probe's recent runs.
 *   <li>loss_limited: throughput ≤ (1 + tolerance) × the Mathis bound streams × MSS/RTT × C/√p, p =
 *       retransmitted ÷ sent segments.
 *   <li>unknown otherwise (or without an RTT).
 * </ol>
 */
public final class Diagnosis {
    private Diagnosis() {}

    /** What is known about the link besides the run. */
    public record Context(HostSnapshot host, Double pingRttMs, double bestBps, int runs) {}

    public static Event diagnose(DiagnosisRun run, Context c, DiagnosisParams p) {
        double observed = run.bitsPerSecond();
        int streams = run.streams() == null ? 1 : Math.max(1, run.streams());
        Double rttMs = run.rttMs() != null ? run.rttMs() : c.pingRttMs();
        LinkCapacity capacity = LinkCapacity.of(run.link(), p, c.bestBps());
        EventBuilder e =
                Event.builder(
                                EventKind.DIAGNOSIS,
                                run.src(),
                                run.dst(),
                                Detectors.DIAGNOSIS,
                                run.ts())
                        .protocol("tcp")
                        .evidence("observed_bps", Fmt.round(observed))
                        .evidence("streams", (long) streams)
                        .evidence("best_bps", Fmt.round(c.bestBps()))
                        .evidence("probe", run.probeId());
        if (rttMs == null || rttMs <= 0) {
            return e.cause(DiagnosisCause.UNKNOWN.wire())
                    .severity("info")
                    .message(
                            String.format(
                                    "throughput %s: no RTT known for %s, cannot tell what limits it",
                                    Fmt.bps(observed), run.probeId()))
                    .build();
        }
        double rtt = rttMs / 1000.0;
        e.evidence("rtt_ms", Fmt.round(rttMs));
        TcpWindow receiver = TcpWindow.receiver(run, streams);
        if (receiver != null) {
            e.evidence("snd_wnd_bytes", run.sndWndBytes());
        }
        TcpWindow window = binding(TcpWindow.of(run, c.host()), receiver, p);
        if (window != null) {
            double bound = streams * window.bytes() * 8.0 / rtt;
            e.evidence("window_bytes", window.bytes())
                    .evidence("window_bound_bps", Fmt.round(bound))
                    .evidence("window_source", window.source());
            boolean underCapacity =
                    capacity == null
                            || capacity.source() == LinkCapacity.Source.BEST_RUN
                            || bound < capacity.bps();
            if (underCapacity && Math.abs(observed - bound) <= p.windowTolerance() * bound) {
                return e.cause(window.cause().wire())
                        .severity("warning")
                        .message(
                                windowLimited(
                                        window,
                                        streams,
                                        rttMs,
                                        bound,
                                        observed,
                                        capacity,
                                        p,
                                        e,
                                        window.host(run)))
                        .build();
            }
        }
        if (c.runs() >= p.minRuns() && observed >= p.capacityRatio() * c.bestBps()) {
            return e.cause(DiagnosisCause.CAPACITY.wire())
                    .severity("info")
                    .message(
                            String.format(
                                    "at capacity: %s is %s of the best recent run (%s)",
                                    Fmt.bps(observed),
                                    Fmt.percent(100 * observed / c.bestBps()),
                                    Fmt.bps(c.bestBps())))
                    .build();
        }
        int mss = c.host() != null && c.host().mtu() != null ? c.host().mtu() - 40 : p.mssBytes();
        Double lossRate =
                run.retransmits() != null && run.bytes() != null && run.bytes() > 0
                        ? run.retransmits() / (run.bytes() / (double) mss)
                        : null;
        if (lossRate != null && lossRate > 0) {
            double mathis = streams * (mss * 8.0 / rtt) * p.mathisC() / Math.sqrt(lossRate);
            e.evidence("loss_rate", Fmt.round(lossRate))
                    .evidence("mathis_bound_bps", Fmt.round(mathis))
                    .evidence("mss_bytes", (long) mss);
            if (observed <= (1 + p.lossTolerance()) * mathis) {
                return e.cause(DiagnosisCause.LOSS_LIMITED.wire())
                        .severity("warning")
                        .message(
                                String.format(
                                        "loss-limited: %s of segments retransmitted over %s allow %s (Mathis, MSS %d); observed %s",
                                        Fmt.percent(100 * lossRate),
                                        Fmt.ms(rttMs),
                                        Fmt.bps(mathis),
                                        mss,
                                        Fmt.bps(observed)))
                        .build();
            }
        }
        return e.cause(DiagnosisCause.UNKNOWN.wire())
                .severity("info")
                .message(
                        String.format(
                                "throughput %s is below the best recent run (%s) without a window or loss limit to explain it",
                                Fmt.bps(observed), Fmt.bps(c.bestBps())))
                .build();
    }

    /**
     * The window that binds: the receiver's when it is smaller than the sender's by more than the
     * tolerance (a tie names the sender's, the probing host's own setting), else the sender's.
     */
    static TcpWindow binding(TcpWindow sender, TcpWindow receiver, DiagnosisParams p) {
        if (sender == null || receiver == null) {
            return sender == null ? receiver : sender;
        }
        return receiver.bytes() < (1 - p.windowTolerance()) * sender.bytes() ? receiver : sender;
    }

    /**
     * "host-tuning-limited: 64 KiB / 140 ms = 3.74 Mbit/s (observed 3.60 Mbit/s), set by the max of
     * net.ipv4.tcp_wmem on slac-iepm; a window of 1.67 MiB would fill the link's 100 Mbit/s
     * (configured): raise it to at least that". Without a capacity above the bound (every run so
     * far window-limited, nothing configured), it says how to give one.
     */
    static String windowLimited(
            TcpWindow w,
            int streams,
            double rttMs,
            double bound,
            double observed,
            LinkCapacity capacity,
            DiagnosisParams p,
            EventBuilder e,
            String host) {
        String head =
                String.format(
                        "%s: %s%s%s / %s = %s (observed %s), set by %s%s",
                        w.cause().wire().replace('_', '-'),
                        w.origin() == TcpWindow.Origin.RECEIVER ? host + " advertised " : "",
                        streams > 1 ? streams + " × " : "",
                        Fmt.bytes(w.bytes()),
                        Fmt.ms(rttMs),
                        Fmt.bps(bound),
                        Fmt.bps(observed),
                        w.setting(),
                        w.origin() == TcpWindow.Origin.REQUESTED ? "" : " on " + host);
        if (capacity == null || capacity.bps() <= bound * (1 + p.windowTolerance())) {
            return head
                    + "; every run so far is held at this bound: give the link's capacity "
                    + "(--diagnosis.capacity-overrides SRC|DST=BPS) to size the window, which throughput follows up to it";
        }
        long optimum = Math.round(capacity.bps() * (rttMs / 1000.0) / 8 / streams);
        e.evidence("optimum_window_bytes", optimum)
                .evidence("capacity_bps", Fmt.round(capacity.bps()))
                .evidence("capacity_source", capacity.sourceName());
        String what =
                capacity.source() == LinkCapacity.Source.CONFIGURED
                        ? "the link's " + Fmt.bps(capacity.bps()) + " (configured)"
                        : "the best it has shown, " + Fmt.bps(capacity.bps());
        return String.format(
                "%s; a window of %s%s would fill %s: raise %s to at least that",
                head, Fmt.bytes(optimum), streams > 1 ? " per stream" : "", what, w.setting());
    }
}
