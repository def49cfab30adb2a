package org.longhaul.flink.functions.detect;

import org.longhaul.flink.records.DiagnosisCause;
import org.longhaul.flink.records.HostSnapshot;

/**
 * A window that bounds a TCP run (per stream), and what sets it, so a diagnosis can say what to
 * change:
 *
 * <ul>
 *   <li>{@link Origin#REQUESTED}: the probe asked for it (iperf3 -w) and the host allows it;
 *   <li>{@link Origin#SOCKET_MAX}: the probe asked for more than net.core.wmem_max (rmem_max on a
 *       reverse run, where the probing host receives) lets a socket have;
 *   <li>{@link Origin#AUTOTUNE}: no window asked for; autotuning stops at the maximum of
 *       net.ipv4.tcp_wmem (tcp_rmem on a reverse run);
 *   <li>{@link Origin#RECEIVER}: the window the receiving end advertised (iperf3's snd_wnd, the
 *       largest of the run): its receive buffer, set by its net.ipv4.tcp_rmem.
 * </ul>
 *
 * The host snapshot is the probing host's (the run's src).
 */
public record TcpWindow(long bytes, Origin origin, boolean reverse) {

    public enum Origin {
        REQUESTED,
        SOCKET_MAX,
        AUTOTUNE,
        RECEIVER
    }

    /** The effective window of the probing host's socket, or null when unknown. */
    public static TcpWindow of(DiagnosisRun run, HostSnapshot host) {
        Long requested =
                run.windowBytes() != null && run.windowBytes() > 0 ? run.windowBytes() : null;
        boolean rev = run.reverse();
        if (host == null) {
            return requested == null ? null : new TcpWindow(requested, Origin.REQUESTED, rev);
        }
        if (requested != null) {
            long max = rev ? host.rmemMax() : host.wmemMax();
            return requested <= max
                    ? new TcpWindow(requested, Origin.REQUESTED, rev)
                    : new TcpWindow(max, Origin.SOCKET_MAX, rev);
        }
        return new TcpWindow(
                rev ? host.autotuneReceiveMax() : host.autotuneSendMax(), Origin.AUTOTUNE, rev);
    }

    /** The receiver's advertised window per stream, or null when the run does not give it. */
    public static TcpWindow receiver(DiagnosisRun run, int streams) {
        Long sum = run.sndWndBytes();
        return sum == null || sum <= 0
                ? null
                : new TcpWindow(Math.max(1, sum / streams), Origin.RECEIVER, run.reverse());
    }

    /** The cause a run held at this window has. */
    public DiagnosisCause cause() {
        return switch (origin) {
            case REQUESTED -> DiagnosisCause.SENDER_WINDOW_LIMITED;
            case SOCKET_MAX, AUTOTUNE -> DiagnosisCause.HOST_TUNING_LIMITED;
            case RECEIVER -> DiagnosisCause.RECEIVER_WINDOW_LIMITED;
        };
    }

    /** The host whose setting it is: the probing host, or for the receiver's window the far end. */
    public String host(DiagnosisRun run) {
        return origin == Origin.RECEIVER && !reverse ? run.dst() : run.src();
    }

    /** The setting to change: a sysctl, or the probe's window parameter. */
    public String setting() {
        return switch (origin) {
            case REQUESTED -> "the probe's window (iperf3 -w)";
            case SOCKET_MAX -> reverse ? "net.core.rmem_max" : "net.core.wmem_max";
            case AUTOTUNE ->
                    reverse ? "the max of net.ipv4.tcp_rmem" : "the max of net.ipv4.tcp_wmem";
            case RECEIVER -> "the max of net.ipv4.tcp_rmem (and net.core.rmem_max)";
        };
    }

    /** Evidence's name of the origin. */
    public String source() {
        return switch (origin) {
            case REQUESTED -> "requested";
            case SOCKET_MAX -> reverse ? "net.core.rmem_max" : "net.core.wmem_max";
            case AUTOTUNE -> reverse ? "net.ipv4.tcp_rmem" : "net.ipv4.tcp_wmem";
            case RECEIVER -> "receiver";
        };
    }
}
