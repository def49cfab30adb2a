package org.longhaul.flink.functions.confirm;

import org.longhaul.flink.records.ProbeRequest;

/**
 * One input of {@link RequestTracker}: a request sent, or a run of the link (exactly one is set).
 */
public record TrackerInput(ProbeRequest request, RunSeen run) {

    public static TrackerInput of(ProbeRequest r) {
        return new TrackerInput(r, null);
    }

    public static TrackerInput of(RunSeen r) {
        return new TrackerInput(null, r);
    }

    public String link() {
        return request != null ? request.link() : run.link();
    }
}
