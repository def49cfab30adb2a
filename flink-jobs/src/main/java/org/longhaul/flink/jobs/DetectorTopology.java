package org.longhaul.flink.jobs;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.longhaul.flink.functions.detect.StallDetector;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.ThroughputSample;

/** Wiring of the detectors: each a keyed function on the validated streams; their events unioned. */
public final class DetectorTopology {
    private DetectorTopology() {}

    public static DataStream<Event> wire(RawStreams raw, PipelineConfig cfg) {
        DetectorConfig d = cfg.detectors();
        DataStream<Event> stalls = raw.throughput()
                .filter(ThroughputSample::countedInterval).name("select: intervals").uid("select-intervals")
                .keyBy(t -> Links.key(t.src(), t.dst(), t.runId()), Types.STRING)
                .process(new StallDetector(d.stall())).name("detect: stall").uid("detect-stall");
        return stalls;
    }
}
