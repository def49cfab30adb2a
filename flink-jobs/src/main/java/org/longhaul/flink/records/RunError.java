package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Why a probe run failed: {@code error} of the raw schemas. */
public record RunError(@JsonProperty("class") String errorClass, String message) {

    /** Error classes that mean the target could not be reached (not a skipped or broken tool). */
    public boolean reachability() {
        return switch (errorClass == null ? "" : errorClass) {
            case "connection_refused", "no_route", "host_unreachable", "timeout" -> true;
            default -> false;
        };
    }

    /** A run that was never attempted (slot missed): neither a success nor a failure. */
    public boolean notStarted() {
        return "not_started".equals(errorClass);
    }
}
