package org.longhaul.flink.records;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Fluent construction of an {@link Event}; evidence keeps insertion order. */
public final class EventBuilder {
    private final String kind;
    private final String src;
    private final String dst;
    private final String detector;
    private final long ts;
    private String severity = "warning";
    private String message;
    private String protocol;
    private String episodeId;
    private String cause;
    private List<String> pathBefore;
    private List<String> pathAfter;
    private List<ChangedHop> changedHops;
    private Location location;
    private List<IncidentLink> links;
    private final Map<String, Object> evidence = new LinkedHashMap<>();

    EventBuilder(String kind, String src, String dst, String detector, long ts) {
        this.kind = kind;
        this.src = src;
        this.dst = dst;
        this.detector = detector;
        this.ts = ts;
    }

    public EventBuilder severity(String value) {
        severity = value;
        return this;
    }

    public EventBuilder message(String value) {
        message = value;
        return this;
    }

    public EventBuilder protocol(String value) {
        protocol = value;
        return this;
    }

    public EventBuilder episode(String value) {
        episodeId = value;
        return this;
    }

    public EventBuilder cause(String value) {
        cause = value;
        return this;
    }

    public EventBuilder route(List<String> before, List<String> after, List<ChangedHop> changed) {
        pathBefore = before;
        pathAfter = after;
        changedHops = changed;
        return this;
    }

    /** An incident's location and the degraded links it explains. */
    public EventBuilder incident(Location where, List<IncidentLink> explained) {
        location = where;
        links = List.copyOf(explained);
        return this;
    }

    /** Adds a number to the evidence; NaN and infinities become null (JSON has no such numbers). */
    public EventBuilder evidence(String name, double value) {
        evidence.put(name, Double.isFinite(value) ? value : null);
        return this;
    }

    public EventBuilder evidence(String name, long value) {
        evidence.put(name, value);
        return this;
    }

    public EventBuilder evidence(String name, String value) {
        evidence.put(name, value);
        return this;
    }

    public EventBuilder evidence(String name, boolean value) {
        evidence.put(name, value);
        return this;
    }

    public Event build() {
        if (message == null || message.isEmpty()) {
            throw new IllegalStateException("an event needs a message: " + kind);
        }
        return new Event(
                Event.SCHEMA,
                ContractNames.VERSION_EVENTS,
                kind,
                src,
                dst,
                detector,
                ts,
                severity,
                message,
                protocol,
                episodeId,
                cause,
                pathBefore,
                pathAfter,
                changedHops,
                location,
                links,
                evidence.isEmpty() ? null : new LinkedHashMap<>(evidence));
    }
}
