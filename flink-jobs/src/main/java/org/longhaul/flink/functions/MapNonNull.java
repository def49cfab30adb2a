package org.longhaul.flink.functions;

import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.function.SerializableFunction;

/** Applies a pure mapping and drops the elements it maps to null (Flink cannot carry nulls). */
public final class MapNonNull<T, R> implements FlatMapFunction<T, R> {
    private static final long serialVersionUID = 1L;
    private final SerializableFunction<T, R> mapping;

    public MapNonNull(SerializableFunction<T, R> mapping) {
        this.mapping = mapping;
    }

    @Override
    public void flatMap(T value, Collector<R> out) {
        R r = mapping.apply(value);
        if (r != null) {
            out.collect(r);
        }
    }
}
