package org.longhaul.flink.functions.detect;

/**
 * What a link can carry, for sizing the window that would fill it: the link's configured capacity
 * ({@code --diagnosis.capacity-overrides}, or {@code --diagnosis.capacity-bps} for every link),
 * else the best throughput its probe has shown. Never a fixed default: a 1 Gbit/s guess on a 100
 * Mbit/s link asked for a window ten times too large.
 */
public record LinkCapacity(double bps, Source source) {

    public enum Source {
        CONFIGURED,
        BEST_RUN
    }

    /** The link's capacity, or null when nothing is configured and no run has been seen. */
    public static LinkCapacity of(String link, DiagnosisParams p, double bestBps) {
        Double configured = p.capacity(link);
        if (configured != null) {
            return new LinkCapacity(configured, Source.CONFIGURED);
        }
        return bestBps > 0 ? new LinkCapacity(bestBps, Source.BEST_RUN) : null;
    }

    /** Evidence's name of the source. */
    public String sourceName() {
        return source == Source.CONFIGURED ? "configured" : "best_run";
    }
}
