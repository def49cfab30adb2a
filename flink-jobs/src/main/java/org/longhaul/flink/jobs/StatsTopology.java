package org.longhaul.flink.jobs;

import java.time.Duration;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.datastream.WindowedStream;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.OutputTag;
import org.longhaul.flink.functions.stats.AddWindowBounds;
import org.longhaul.flink.functions.stats.LateToDeadLetter;
import org.longhaul.flink.functions.stats.LinkAccumulator;
import org.longhaul.flink.functions.stats.LinkClock;
import org.longhaul.flink.functions.stats.LinkCloseTrigger;
import org.longhaul.flink.functions.stats.LinkStatsAggregate;
import org.longhaul.flink.functions.stats.Observation;
import org.longhaul.flink.functions.stats.ObservationType;
import org.longhaul.flink.functions.stats.RollupAggregate;
import org.longhaul.flink.functions.stats.Stagger;
import org.longhaul.flink.functions.stats.StaggeredTumblingWindows;
import org.longhaul.flink.functions.stats.ToLinkStats;
import org.longhaul.flink.functions.stats.WindowedStats;
import org.longhaul.flink.records.DeadLetter;
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
 * <p>A minute closes at the watermark or, with a settle ({@link PipelineConfig#statsSettle}), once
 * its link's own data have passed its end ({@link LinkClock}, {@link LinkCloseTrigger}); a link
 * that falls silent closes it after the out-of-orderness. Hours and days close at the watermark.
 * Corrections (what reached a minute after its link had closed it) are folded into the hour and the
 * day, and the minute is written again with them ({@link WindowedStats.Part}); observations behind
 * the watermark become dead letters.
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

    /** Observations that came behind the watermark of their minute. */
    static final OutputTag<Observation> LATE =
            new OutputTag<>("stats-late", ObservationType.INSTANCE);

    /** The statistics, and the dead letters of observations too late for them. */
    public record Stats(DataStream<LinkStats> stats, DataStream<DeadLetter> late) {}

    public static Stats wire(RawStreams raw, Stagger stagger, Duration settle, Duration backstop) {
        KeyedStream<Observation, String> links =
                raw.observations().keyBy(Observation::key, LinkKeyType.INSTANCE);
        if (settle != null) {
            // chained to the windows (no second exchange): the clock sees their watermark
            links =
                    DataStreamUtils.reinterpretAsKeyedStream(
                            links.process(
                                            new LinkClock(
                                                    Duration.ofMinutes(1),
                                                    stagger,
                                                    settle,
                                                    backstop),
                                            ObservationType.INSTANCE)
                                    .name("stats: link clocks")
                                    .uid("stats-link-clock"),
                            Observation::key,
                            LinkKeyType.INSTANCE);
        }
        WindowedStream<Observation, String, TimeWindow> minutes =
                links.window(
                                new StaggeredTumblingWindows<>(
                                        Duration.ofMinutes(1),
                                        stagger,
                                        Observation::key,
                                        o -> o.closes() ? o.ts() : null))
                        .sideOutputLateData(LATE);
        if (settle != null) {
            minutes = minutes.trigger(new LinkCloseTrigger<>(Observation::closes));
        }
        SingleOutputStreamOperator<WindowedStats> minute =
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
                        minute.filter(w -> w.part().rolledUp())
                                .name("stats: 1m to roll up")
                                .uid("stats-1m-rolled-up"),
                        Duration.ofHours(1),
                        "1h",
                        stagger);
        DataStream<WindowedStats> day = rollup(hour, Duration.ofDays(1), "1d", stagger);
        DataStream<DeadLetter> late =
                minute.getSideOutput(LATE)
                        .process(new LateToDeadLetter())
                        .name("stats: late to dead letters")
                        .uid("stats-late");
        DataStream<LinkStats> stats =
                minute.union(hour, day)
                        .filter(w -> w.part().written())
                        .name("stats: written")
                        .uid("stats-written-once")
                        .map(new ToLinkStats())
                        .name("stats: to link_stats")
                        .uid("stats-to-message");
        return new Stats(stats, late);
    }

    private static DataStream<WindowedStats> rollup(
            DataStream<WindowedStats> finer, Duration size, String label, Stagger stagger) {
        WindowedStream<WindowedStats, String, TimeWindow> windows =
                finer.keyBy(WindowedStats::key, LinkKeyType.INSTANCE)
                        .window(new StaggeredTumblingWindows<>(size, stagger, WindowedStats::key));
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
