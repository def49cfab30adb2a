package org.longhaul.flink.jobs;

import java.time.Duration;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.longhaul.flink.functions.stats.AddWindowBounds;
import org.longhaul.flink.functions.stats.LinkAccumulator;
import org.longhaul.flink.functions.stats.LinkStatsAggregate;
import org.longhaul.flink.functions.stats.Observation;
import org.longhaul.flink.functions.stats.ObserveFunction;
import org.longhaul.flink.functions.stats.RollupAggregate;
import org.longhaul.flink.functions.stats.Stagger;
import org.longhaul.flink.functions.stats.StaggeredTumblingWindows;
import org.longhaul.flink.functions.stats.ToLinkStats;
import org.longhaul.flink.functions.stats.WindowedStats;
import org.longhaul.flink.records.LinkStats;
import org.longhaul.flink.state.LinkKeyType;
import org.longhaul.flink.state.OneWriteType;

/**
 * Wiring of the link statistics: observations of throughput, ping, one-way latency and traceroute
 * samples keyed by "src|dst|protocol" → 1m tumbling event-time windows (incremental aggregation) →
 * 1h windows folding the 1m accumulators → 1d windows folding the 1h ones. Output: every window as
 * LinkStats. Each key's windows are shifted by its own whole-second offset ({@link Stagger}), the
 * same for all three sizes, so the statistics leave as a stream instead of one burst per minute.
 */
public final class StatsTopology {
    /** The windows' state: each accumulator goes into a snapshot in one write. */
    private static final TypeInformation<LinkAccumulator> ACCUMULATOR =
            OneWriteType.of(LinkAccumulator.class);

    private static final TypeInformation<LinkAccumulator> RESULT =
            TypeInformation.of(LinkAccumulator.class);
    private static final TypeInformation<WindowedStats> WINDOWED =
            TypeInformation.of(WindowedStats.class);

    private StatsTopology() {}

    public static DataStream<LinkStats> wire(RawStreams raw, Stagger stagger) {
        DataStream<Observation> observations =
                raw.throughput()
                        .flatMap(ObserveFunction.throughput())
                        .name("observe: throughput")
                        .uid("observe-throughput")
                        .union(
                                raw.rtt()
                                        .flatMap(ObserveFunction.rtt())
                                        .name("observe: rtt")
                                        .uid("observe-rtt"),
                                raw.latency()
                                        .flatMap(ObserveFunction.latency())
                                        .name("observe: latency")
                                        .uid("observe-latency"),
                                raw.path()
                                        .flatMap(ObserveFunction.path())
                                        .name("observe: path")
                                        .uid("observe-path"));
        DataStream<WindowedStats> minute =
                observations
                        .keyBy(Observation::key, LinkKeyType.INSTANCE)
                        .window(
                                new StaggeredTumblingWindows<>(
                                        Duration.ofMinutes(1), stagger, Observation::key))
                        .aggregate(
                                new LinkStatsAggregate(),
                                new AddWindowBounds("1m"),
                                ACCUMULATOR,
                                RESULT,
                                WINDOWED)
                        .name("stats: 1m windows")
                        .uid("stats-1m");
        DataStream<WindowedStats> hour = rollup(minute, Duration.ofHours(1), "1h", stagger);
        DataStream<WindowedStats> day = rollup(hour, Duration.ofDays(1), "1d", stagger);
        return minute.union(hour, day)
                .map(new ToLinkStats())
                .name("stats: to link_stats")
                .uid("stats-to-message");
    }

    private static DataStream<WindowedStats> rollup(
            DataStream<WindowedStats> finer, Duration size, String label, Stagger stagger) {
        return finer.keyBy(WindowedStats::key, LinkKeyType.INSTANCE)
                .window(new StaggeredTumblingWindows<>(size, stagger, WindowedStats::key))
                .aggregate(
                        new RollupAggregate(),
                        new AddWindowBounds(label),
                        ACCUMULATOR,
                        RESULT,
                        WINDOWED)
                .name("stats: " + label + " windows")
                .uid("stats-" + label);
    }
}
