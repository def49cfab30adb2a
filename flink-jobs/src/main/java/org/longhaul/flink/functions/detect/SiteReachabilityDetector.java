package org.longhaul.flink.functions.detect;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.longhaul.flink.functions.common.CleanupTimer;
import org.longhaul.flink.functions.common.Fmt;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.state.OneWriteType;

/**
 * site_unreachable / site_reachable per destination (key dst, src "*"): when a quorum of the
 * sources that probed the destination within {@link ReachParams#siteRecent()} — {@link
 * ReachParams#siteQuorum()} of them, at least {@link ReachParams#siteMinSources()} — failed their
 * latest run with a reachability error, the site is unreachable (once); it is reachable again once
 * fewer than that fail. Each source speaks in its own name only, so the quorum keeps one site's
 * runs (true, or claimed by a site's stolen identity) from preventing or ending another site's
 * alarm while most of its sources fail. State: the latest verdict per source (older sources are
 * pruned) and the site's episode.
 */
public final class SiteReachabilityDetector
        extends KeyedProcessFunction<String, ThroughputSample, Event> {
    private static final long serialVersionUID = 1L;

    private final ReachParams p;
    private final Duration ttl;
    private transient MapState<String, SourceStatus> sources;
    private transient ValueState<SiteState> site;
    private transient CleanupTimer cleanup;

    public SiteReachabilityDetector(ReachParams params, Duration stateTtl) {
        this.p = params;
        this.ttl = stateTtl;
    }

    @Override
    public void open(OpenContext context) {
        var rc = getRuntimeContext();
        sources = OneWriteType.mapState(rc, "site-sources", Types.STRING, SourceStatus.class);
        site = OneWriteType.valueState(rc, "site", SiteState.class);
        cleanup = new CleanupTimer(getRuntimeContext(), "site", ttl);
    }

    @Override
    public void processElement(ThroughputSample run, Context ctx, Collector<Event> out)
            throws Exception {
        int verdict = ReachabilityDetector.verdict(run);
        if (verdict == 0) {
            return;
        }
        cleanup.touch(ctx.timerService(), run.ts());
        SourceStatus previous = sources.get(run.src());
        if (previous == null || previous.ts() <= run.ts()) {
            sources.put(
                    run.src(),
                    new SourceStatus(
                            run.ts(), verdict < 0, verdict < 0 ? run.error().errorClass() : null));
        }
        List<SourceStatus> recent = pruneAndList(run.ts() - p.siteRecent().toMillis());
        long failing = recent.stream().filter(SourceStatus::failing).count();
        SiteState s = site.value() == null ? new SiteState() : site.value();
        long needed = p.siteFailing(recent.size());
        if (!s.down && failing >= needed) {
            s.down = true;
            s.since = run.ts();
            s.episodeId = EventKind.SITE_UNREACHABLE.wire() + ":" + run.dst() + "@" + run.ts();
            site.update(s);
            out.collect(siteUnreachable(run, recent, failing));
        } else if (s.down && failing < needed) {
            out.collect(siteReachable(run, s, recent.size(), failing));
            site.clear();
        }
    }

    private List<SourceStatus> pruneAndList(long oldest) throws Exception {
        List<String> stale = new ArrayList<>();
        List<SourceStatus> recent = new ArrayList<>();
        for (Map.Entry<String, SourceStatus> e : sources.entries()) {
            if (e.getValue().ts() < oldest) {
                stale.add(e.getKey());
            } else {
                recent.add(e.getValue());
            }
        }
        for (String src : stale) {
            sources.remove(src);
        }
        return recent;
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Event> out) throws Exception {
        cleanup.clearIfExpired(ctx.timerService(), timestamp, sources, site);
    }

    private static String commonestClass(List<SourceStatus> statuses) {
        Map<String, Integer> counts = new HashMap<>();
        statuses.forEach(s -> counts.merge(String.valueOf(s.errorClass()), 1, Integer::sum));
        return counts.entrySet().stream()
                .max(
                        Map.Entry.<String, Integer>comparingByValue()
                                .thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey)
                .orElse("unknown");
    }

    private static Event siteUnreachable(
            ThroughputSample run, List<SourceStatus> recent, long failing) {
        String cls = commonestClass(recent.stream().filter(SourceStatus::failing).toList());
        return Event.builder(
                        EventKind.SITE_UNREACHABLE,
                        "*",
                        run.dst(),
                        Detectors.REACHABILITY,
                        run.ts())
                .severity("critical")
                .episode(EventKind.SITE_UNREACHABLE.wire() + ":" + run.dst() + "@" + run.ts())
                .message(
                        String.format(
                                "%s fail to reach %s: %d of %d recent sources, mostly %s",
                                failing == recent.size() ? "every source" : "most sources",
                                run.dst(),
                                failing,
                                recent.size(),
                                cls))
                .evidence("sources", (long) recent.size())
                .evidence("failing", failing)
                .evidence("error_class", cls)
                .build();
    }

    private static Event siteReachable(
            ThroughputSample run, SiteState s, int sources, long failing) {
        double downFor = (run.ts() - s.since) / 1000.0;
        return Event.builder(
                        EventKind.SITE_REACHABLE, "*", run.dst(), Detectors.REACHABILITY, run.ts())
                .severity("info")
                .episode(s.episodeId)
                .message(
                        String.format(
                                "%s reachable again after %s: %d of %d recent sources get"
                                        + " through",
                                run.dst(), Fmt.seconds(downFor), sources - failing, sources))
                .evidence("sources", (long) sources)
                .evidence("failing", failing)
                .evidence("reached_from", run.src())
                .evidence("down_for_s", Fmt.round(downFor))
                .build();
    }
}
