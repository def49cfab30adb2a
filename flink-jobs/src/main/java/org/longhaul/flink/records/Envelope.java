package org.longhaul.flink.records;

/**
 * The six fields every Longhaul message opens with (ingest/sample's Envelope in Go): its schema and
 * version, the link src → dst, the probe that measured it and its time in Unix milliseconds. A
 * record holds it as one {@code @JsonUnwrapped} component, so its JSON stays flat ({@link
 * RecordBinder} binds it in the same pass as the rest).
 */
public record Envelope(
        String schema, int version, String src, String dst, String probeId, long ts) {}
