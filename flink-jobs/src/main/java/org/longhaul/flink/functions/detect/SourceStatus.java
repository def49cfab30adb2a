package org.longhaul.flink.functions.detect;

/** The last verdict of one source about a destination: when, and whether it failed and how. */
public record SourceStatus(long ts, boolean failing, String errorClass) {}
