package org.longhaul.flink.jobs;

import java.time.Duration;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.WindowedStream;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.longhaul.flink.functions.stats.AddWindowBounds;
import org.longhaul.flink.functions.stats.LinkAccumulator;
import org.longhaul.flink.functions.stats.LinkCloseTrigger;
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
 *
 * <p>A window closes at the watermark or, with a grace ({@link PipelineConfig#statsGrace}), once
 * its link's own clock is past its end ({@link LinkCloseTrigger}); a coarser window waits one finer
 * window more, for its last one to close. Corrections (what reached a window after it had closed by
 * its link's clock) are folded into the coarser windows and not written again.
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

    public static DataStream<LinkStats> wire(RawStreams raw, Stagger stagger, Duration grace) {
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
        WindowedStream<Observation, String, TimeWindow> minutes =
                observations
                        .keyBy(Observation::key, LinkKeyType.INSTANCE)
                        .window(
                                new StaggeredTumblingWindows<>(
                                        Duration.ofMinutes(1), stagger, Observation::key));
        if (grace != null) {
            minutes = minutes.trigger(new LinkCloseTrigger(grace));
        }
        DataStream<WindowedStats> minute =
                minutes.aggregate(
                                new LinkStatsAggregate(),
                                new AddWindowBounds("1m"),
                                ACCUMULATOR,
                                RESULT,
                                WINDOWED)
                        .name("stats: 1m windows")
                        .uid("stats-1m");
        DataStream<WindowedStats> hour =
                rollup(
                        minute,
                        Duration.ofHours(1),
                        "1h",
                        stagger,
                        after(grace, Duration.ofMinutes(1)));
        DataStream<WindowedStats> day =
                rollup(hour, Duration.ofDays(1), "1d", stagger, after(grace, Duration.ofHours(1)));
        return minute.union(hour, day)
                .filter(w -> !w.correction())
                .name("stats: written once")
                .uid("stats-written-once")
                .map(new ToLinkStats())
                .name("stats: to link_stats")
                .uid("stats-to-message");
    }

    /** A coarser window's grace: one finer window more, for the finer one to close first. */
    private static Duration after(Duration grace, Duration finer) {
        return grace == null ? null : grace.plus(finer);
    }

    private static DataStream<WindowedStats> rollup(
            DataStream<WindowedStats> finer,
            Duration size,
            String label,
            Stagger stagger,
            Duration grace) {
        WindowedStream<WindowedStats, String, TimeWindow> windows =
                finer.keyBy(WindowedStats::key, LinkKeyType.INSTANCE)
                        .window(new StaggeredTumblingWindows<>(size, stagger, WindowedStats::key));
        if (grace != null) {
            windows = windows.trigger(new LinkCloseTrigger(grace));
        }
        return windows.aggregate(
                        new RollupAggregate(),
                        new AddWindowBounds(label),
                        ACCUMULATOR,
                        RESULT,
                        WINDOWED)
                .name("stats: " + label + " windows")
                .uid("stats-" + label);
    }
}
