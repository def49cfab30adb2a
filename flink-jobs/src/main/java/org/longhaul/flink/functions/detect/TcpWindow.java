package org.longhaul.flink.functions.detect;

import org.longhaul.flink.records.HostSnapshot;

/**
 * The window that bounds a TCP run, and what sets it, so a diagnosis can say what to change:
 * <ul>
 *   <li>{@link Origin#REQUESTED}: the probe asked for it (iperf3 -w) and the host allows it;</li>
 *   <li>{@link Origin#SOCKET_MAX}: the probe asked for more than net.core.wmem_max (rmem_max on a
 *       reverse run, where the probing host receives) lets a socket have;</li>
 *   <li>{@link Origin#AUTOTUNE}: no window asked for; autotuning stops at the maximum of
 *       net.ipv4.tcp_wmem (tcp_rmem on a reverse run).</li>
 * </ul>
 * The host snapshot is the probing host's (the run's src).
 */
public record TcpWindow(long bytes, Origin origin, boolean reverse) {

    public enum Origin { REQUESTED, SOCKET_MAX, AUTOTUNE }

    /** The effective window of the run's sender (receiver for a reverse run), or null when unknown. */
    public static TcpWindow of(DiagnosisRun run, HostSnapshot host) {
        Long requested = run.windowBytes() != null && run.windowBytes() > 0 ? run.windowBytes() : null;
        boolean rev = run.reverse();
        if (host == null) {
            return requested == null ? null : new TcpWindow(requested, Origin.REQUESTED, rev);
        }
        if (requested != null) {
            long max = rev ? host.rmemMax() : host.wmemMax();
            return requested <= max ? new TcpWindow(requested, Origin.REQUESTED, rev) : new TcpWindow(max, Origin.SOCKET_MAX, rev);
        }
        return new TcpWindow(rev ? host.autotuneReceiveMax() : host.autotuneSendMax(), Origin.AUTOTUNE, rev);
    }

    /** The setting to change: a sysctl of the probing host, or the probe's window parameter. */
    public String setting() {
        return switch (origin) {
            case REQUESTED -> "the probe's window (iperf3 -w)";
            case SOCKET_MAX -> reverse ? "net.core.rmem_max" : "net.core.wmem_max";
            case AUTOTUNE -> reverse ? "the max of net.ipv4.tcp_rmem" : "the max of net.ipv4.tcp_wmem";
        };
    }

    /** Evidence's name of the origin. */
    public String source() {
        return switch (origin) {
            case REQUESTED -> "requested";
            case SOCKET_MAX -> reverse ? "net.core.rmem_max" : "net.core.wmem_max";
            case AUTOTUNE -> reverse ? "net.ipv4.tcp_rmem" : "net.ipv4.tcp_wmem";
        };
    }
}
