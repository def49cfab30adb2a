package org.longhaul.flink.functions.detect;

import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventBuilder;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.HostSnapshot;

/**
 * The cause behind one TCP run's throughput, in this order:
 * <ol>
 *   <li>window_limited: throughput ≈ streams × window / RTT (±tolerance) and that bound is below
 *       the path's capacity. Window = the requested window_bytes (capped by wmem_max/rmem_max of
 *       the host) or else the host's autotuning maximum (tcp_wmem max; tcp_rmem max for a
 *       reverse run). RTT from the summary, else the latest ping. Optimum window = capacity × RTT.</li>
 *   <li>capacity: throughput ≥ capacityRatio × the best of the probe's recent runs.</li>
 *   <li>loss_limited: throughput ≤ (1 + tolerance) × the Mathis bound streams × MSS/RTT × C/√p,
 *       p = retransmitted ÷ sent segments.</li>
 *   <li>unknown otherwise (or without an RTT).</li>
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
        double capacity = p.capacity(run.link());
        EventBuilder e = Event.builder(EventKind.DIAGNOSIS, run.src(), run.dst(), Detectors.DIAGNOSIS, run.ts())
                .protocol("tcp")
                .evidence("observed_bps", Fmt.round(observed))
                .evidence("streams", (long) streams)
                .evidence("best_bps", Fmt.round(c.bestBps()))
                .evidence("probe", run.probeId());
        if (rttMs == null || rttMs <= 0) {
            return e.cause("unknown").severity("info")
                    .message(String.format("throughput %s: no RTT known for %s, cannot tell what limits it",
                            Fmt.bps(observed), run.probeId()))
                    .build();
        }
        double rtt = rttMs / 1000.0;
        e.evidence("rtt_ms", Fmt.round(rttMs));
        Long window = window(run, c.host());
        if (window != null) {
            double bound = streams * window * 8.0 / rtt;
            long optimum = Math.round(capacity * rtt / 8 / streams);
            e.evidence("window_bytes", window).evidence("window_bound_bps", Fmt.round(bound))
                    .evidence("optimum_window_bytes", optimum).evidence("capacity_bps", capacity);
            if (bound < capacity && Math.abs(observed - bound) <= p.windowTolerance() * bound) {
                return e.cause("window_limited").severity("warning")
                        .message(String.format("window-limited: %s%s / %s = %s (observed %s); a window of %s would fill %s",
                                streams > 1 ? streams + " × " : "", Fmt.bytes(window), Fmt.ms(rttMs), Fmt.bps(bound),
                                Fmt.bps(observed), Fmt.bytes(optimum), Fmt.bps(capacity)))
                        .build();
            }
        }
        if (c.runs() >= p.minRuns() && observed >= p.capacityRatio() * c.bestBps()) {
            return e.cause("capacity").severity("info")
                    .message(String.format("at capacity: %s is %s of the best recent run (%s)",
                            Fmt.bps(observed), Fmt.percent(100 * observed / c.bestBps()), Fmt.bps(c.bestBps())))
                    .build();
        }
        int mss = c.host() != null && c.host().mtu() != null ? c.host().mtu() - 40 : p.mssBytes();
        Double lossRate = run.retransmits() != null && run.bytes() != null && run.bytes() > 0
                ? run.retransmits() / (run.bytes() / (double) mss) : null;
        if (lossRate != null && lossRate > 0) {
            double mathis = streams * (mss * 8.0 / rtt) * p.mathisC() / Math.sqrt(lossRate);
            e.evidence("loss_rate", Fmt.round(lossRate)).evidence("mathis_bound_bps", Fmt.round(mathis))
                    .evidence("mss_bytes", (long) mss);
            if (observed <= (1 + p.lossTolerance()) * mathis) {
                return e.cause("loss_limited").severity("warning")
                        .message(String.format("loss-limited: %s of segments retransmitted over %s allow %s (Mathis, MSS %d); observed %s",
                                Fmt.percent(100 * lossRate), Fmt.ms(rttMs), Fmt.bps(mathis), mss, Fmt.bps(observed)))
                        .build();
            }
        }
        return e.cause("unknown").severity("info")
                .message(String.format("throughput %s is below the best recent run (%s) without a window or loss limit to explain it",
                        Fmt.bps(observed), Fmt.bps(c.bestBps())))
                .build();
    }

    /** The effective window of the run's sender (receiver for a reverse run), or null when unknown. */
    static Long window(DiagnosisRun run, HostSnapshot host) {
        Long requested = run.windowBytes() != null && run.windowBytes() > 0 ? run.windowBytes() : null;
        if (host == null) {
            return requested;
        }
        if (requested != null) {
            return Math.min(requested, run.reverse() ? host.rmemMax() : host.wmemMax());
        }
        return run.reverse() ? host.autotuneReceiveMax() : host.autotuneSendMax();
    }
}
