package org.longhaul.flink.functions.stats;

import org.apache.flink.api.common.functions.AggregateFunction;

/**
 * An aggregation of a window into one {@link LinkAccumulator}, which is also its result; two
 * partial ones merge as accumulators do. Subclasses say how an input adds to it.
 *
 * @param <IN> what the window holds
 */
public abstract class AccumulatingAggregate<IN>
        implements AggregateFunction<IN, LinkAccumulator, LinkAccumulator> {
    private static final long serialVersionUID = 1L;

    @Override
    public final LinkAccumulator createAccumulator() {
        return new LinkAccumulator();
    }

    @Override
    public final LinkAccumulator getResult(LinkAccumulator acc) {
        return acc;
    }

    @Override
    public final LinkAccumulator merge(LinkAccumulator a, LinkAccumulator b) {
        return a.merge(b);
    }
}
