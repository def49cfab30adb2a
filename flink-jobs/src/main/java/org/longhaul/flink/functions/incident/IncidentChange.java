package org.longhaul.flink.functions.incident;

/**
 * What one localisation does to an incident.
 *
 * @param finding what now explains it; null for a resolved incident
 * @param before the incident as it was; null for an opened one
 */
public record IncidentChange(Type type, String id, Finding finding, OpenIncident before) {
    public enum Type {
        OPENED,
        UPDATED,
        RESOLVED
    }
}
