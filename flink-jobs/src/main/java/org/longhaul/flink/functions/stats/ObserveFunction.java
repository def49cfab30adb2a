package org.longhaul.flink.functions.stats;

import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.function.SerializableFunction;
import org.longhaul.flink.records.LatencySample;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.ThroughputSample;

/** Emits the {@link Observation} of each sample that contributes one (see {@link Observations}). */
public final class ObserveFunction<T> implements FlatMapFunction<T, Observation> {
    private static final long serialVersionUID = 1L;
    private final SerializableFunction<T, Observation> observe;

    private ObserveFunction(SerializableFunction<T, Observation> observe) {
        this.observe = observe;
    }

    public static ObserveFunction<ThroughputSample> throughput() {
        return new ObserveFunction<>(Observations::of);
    }

    public static ObserveFunction<RttSample> rtt() {
        return new ObserveFunction<>(Observations::of);
    }

    public static ObserveFunction<LatencySample> latency() {
        return new ObserveFunction<>(Observations::of);
    }

    public static ObserveFunction<PathSample> path() {
        return new ObserveFunction<>(Observations::of);
    }

    @Override
    public void flatMap(T sample, Collector<Observation> out) {
        Observation o = observe.apply(sample);
        if (o != null) {
            out.collect(o);
        }
    }
}
