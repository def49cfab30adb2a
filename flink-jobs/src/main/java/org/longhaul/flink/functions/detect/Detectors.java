package org.longhaul.flink.functions.detect;

/** probe_id of the events each detector raises. */
public final class Detectors {
    private Detectors() {}

    public static final String COLLAPSE = "collapse-detector";
    public static final String STALL = "stall-detector";
    public static final String REACHABILITY = "reachability";
    public static final String QUALITY = "quality-detector";
    public static final String ROUTE = "route-detector";
    public static final String DIAGNOSIS = "diagnosis";
    public static final String NO_DATA = "no-data-detector";
}
