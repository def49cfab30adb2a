package org.longhaul.flink.functions.stats;

import java.io.Serializable;
import org.longhaul.flink.records.LatencySample;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.ThroughputSample;

/**
 * The {@link Observation} of a valid live sample of kind T read from a raw topic, or null when it
 * contributes none ({@link Observations}). The validation calls it, the one step that knows both
 * the sample and the topic it came from.
 */
@FunctionalInterface
public interface Observer<T> extends Serializable {
    Observation of(T sample, String sourceTopic);

    static Observer<ThroughputSample> throughput() {
        return Observations::of;
    }

    static Observer<RttSample> rtt() {
        return Observations::of;
    }

    static Observer<LatencySample> latency() {
        return Observations::of;
    }

    static Observer<PathSample> path() {
        return Observations::of;
    }
}
