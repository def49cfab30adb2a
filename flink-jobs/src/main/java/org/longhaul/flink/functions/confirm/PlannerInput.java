package org.longhaul.flink.functions.confirm;

import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.Suspicion;

/**
 * One input of {@link ConfirmationPlanner}, exactly one of: a suspicion, a run of the link, or a
 * collapse episode of the link opening or closing (its collapse or recovery event).
 */
public record PlannerInput(Suspicion suspicion, RunSeen run, Episode episode) {

    /** A collapse episode of the link opened (its alert) or closed (its recovery) at ts. */
    public record Episode(String src, String dst, long ts, boolean open) {}

    public static PlannerInput of(Suspicion s) {
        return new PlannerInput(s, null, null);
    }

    public static PlannerInput of(RunSeen r) {
        return new PlannerInput(null, r, null);
    }

    /** The episode a collapse or recovery event opens or closes; null for any other event. */
    public static PlannerInput ofEvent(Event e) {
        boolean open = EventKind.THROUGHPUT_COLLAPSE.wire().equals(e.kind());
        if (!open && !EventKind.THROUGHPUT_RECOVERY.wire().equals(e.kind())) {
            return null;
        }
        return new PlannerInput(null, null, new Episode(e.src(), e.dst(), e.ts(), open));
    }

    public String link() {
        if (suspicion != null) {
            return suspicion.link();
        }
        return run != null ? run.link() : Links.key(episode.src(), episode.dst());
    }

    public long ts() {
        if (suspicion != null) {
            return suspicion.ts();
        }
        return run != null ? run.ts() : episode.ts();
    }
}
