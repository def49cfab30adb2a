package org.longhaul.flink.functions.stats;

import org.apache.flink.api.common.functions.AggregateFunction;

/**
 * Folds finished smaller windows (1m into 1h, 1h into 1d) by merging their accumulators, so a
 * coarse window holds one accumulator per link instead of its raw samples.
 */
public final class RollupAggregate
        implements AggregateFunction<WindowedStats, LinkAccumulator, LinkAccumulator> {
    private static final long serialVersionUID = 1L;

    @Override
    public LinkAccumulator createAccumulator() {
        return new LinkAccumulator();
    }

    @Override
    public LinkAccumulator add(WindowedStats value, LinkAccumulator acc) {
        return acc.merge(value.accumulator());
    }

    @Override
    public LinkAccumulator getResult(LinkAccumulator acc) {
        return acc;
    }

    @Override
    public LinkAccumulator merge(LinkAccumulator a, LinkAccumulator b) {
        return a.merge(b);
    }
}
