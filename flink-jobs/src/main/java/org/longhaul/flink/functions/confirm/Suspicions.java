package org.longhaul.flink.functions.confirm;

import java.util.LinkedHashMap;
import java.util.Map;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.Suspicion;
import org.longhaul.flink.records.SuspicionReason;

/** The suspicions other detectors' events raise: a route change, loss at the alarm level. */
public final class Suspicions {
    private Suspicions() {}

    /** The suspicion an event raises, or null for an event that raises none. */
    public static Suspicion ofEvent(Event e) {
        SuspicionReason reason;
        if (EventKind.ROUTE_CHANGE.wire().equals(e.kind())) {
            reason = SuspicionReason.ROUTE_CHANGE;
        } else if (EventKind.HIGH_LOSS.wire().equals(e.kind())) {
            reason = SuspicionReason.LOSS;
        } else {
            return null;
        }
        Map<String, Object> ev = new LinkedHashMap<>();
        if (e.evidence() != null) {
            e.evidence()
                    .forEach(
                            (k, v) -> {
                                if (v instanceof Number || v instanceof Boolean) {
                                    ev.put(k, v);
                                }
                            });
        }
        return Suspicion.of(e.src(), e.dst(), null, e.ts(), reason, e.message(), ev);
    }
}
