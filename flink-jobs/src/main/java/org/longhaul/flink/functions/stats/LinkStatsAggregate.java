package org.longhaul.flink.functions.stats;

import org.apache.flink.api.common.functions.AggregateFunction;

/**
 * Incremental aggregation of raw observations into one accumulator per link, protocol and window.
 */
public final class LinkStatsAggregate
        implements AggregateFunction<Observation, LinkAccumulator, LinkAccumulator> {
    private static final long serialVersionUID = 1L;

    @Override
    public LinkAccumulator createAccumulator() {
        return new LinkAccumulator();
    }

    @Override
    public LinkAccumulator add(Observation value, LinkAccumulator acc) {
        if (value.closes()) {
            return acc; // LinkClock's marker: counts for nothing
        }
        acc.add(value);
        return acc;
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
