package org.longhaul.flink.functions.stats;

/**
 * Incremental aggregation of raw observations into one accumulator per link, protocol and window.
 */
public final class LinkStatsAggregate extends AccumulatingAggregate<Observation> {
    private static final long serialVersionUID = 1L;

    @Override
    public LinkAccumulator add(Observation value, LinkAccumulator acc) {
        if (value.closes()) {
            return acc; // LinkClock's marker: counts for nothing
        }
        acc.add(value);
        return acc;
    }
}
