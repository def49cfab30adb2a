package org.longhaul.flink.functions.stats;

/**
 * Folds finished smaller windows (1m into 1h, 1h into 1d) by merging their accumulators, so a
 * coarse window holds one accumulator per link instead of its raw samples.
 */
public final class RollupAggregate extends AccumulatingAggregate<WindowedStats> {
    private static final long serialVersionUID = 1L;

    @Override
    public LinkAccumulator add(WindowedStats value, LinkAccumulator acc) {
        return acc.merge(value.accumulator());
    }
}
