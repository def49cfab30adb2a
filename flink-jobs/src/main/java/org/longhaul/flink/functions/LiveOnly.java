package org.longhaul.flink.functions;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Drops backfilled samples ({@link History}: records without a timestamp), so that windows and
 * every detector but the ones that learn from history see live samples only. Chained to the
 * validation it follows, it keeps the live samples' order.
 */
public final class LiveOnly<T> extends ProcessFunction<T, T> implements ResultTypeQueryable<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> type;

    public LiveOnly(Class<T> type) {
        this.type = type;
    }

    @Override
    public void processElement(T value, Context ctx, Collector<T> out) {
        if (!History.is(ctx.timestamp())) {
            out.collect(value);
        }
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return TypeInformation.of(type);
    }
}
