package org.longhaul.flink.functions.incident;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.state.OneWriteType;

/**
 * The incident correlator: every link's view under one key (the whole mesh), localised {@link
 * IncidentParams#settle()} after a change in what is degraded; each localisation's changes become
 * incident_opened, incident_updated and incident_resolved events. Checkpointed like every detector:
 * links, open incidents and the pending localisation.
 */
public final class IncidentCorrelator extends KeyedProcessFunction<String, IncidentInput, Event> {
    private static final long serialVersionUID = 1L;

    /** The one key: incidents span links, so the mesh is one state. */
    public static final String MESH = "mesh";

    private final IncidentParams p;
    private final long ttlMs;
    private transient MapState<String, LinkView> links;
    private transient MapState<String, OpenIncident> incidents;
    private transient MapState<Long, List<IncidentInput>> buffered;
    private transient ValueState<Long> localiseAt;

    public IncidentCorrelator(IncidentParams params, Duration stateTtl) {
        this.p = params;
        this.ttlMs = stateTtl.toMillis();
    }

    @Override
    public void open(OpenContext context) {
        var rc = getRuntimeContext();
        links = OneWriteType.mapState(rc, "incident-links", Types.STRING, LinkView.class);
        incidents = OneWriteType.mapState(rc, "incidents", Types.STRING, OpenIncident.class);
        // a time's inputs are a list added to in place (a mesh's runs share their second: a
        // copy of the list at each add was quadratic); an input is never changed, so the heap
        // backend's copy of the buffer at a checkpoint copies the lists, not the inputs
        buffered =
                OneWriteType.mapState(
                        rc,
                        "incident-buffered",
                        Types.LONG,
                        Types.LIST(
                                OneWriteType.unchanged(TypeInformation.of(IncidentInput.class))));
        localiseAt = rc.getState(new ValueStateDescriptor<>("incident-localise-at", Types.LONG));
    }

    /**
     * Inputs are taken in event-time order, at the watermark (the alerts, paths and runs come from
     * several topics and operators, and a localisation must see the mesh as it was at its time);
     * one already behind the watermark is taken at once.
     */
    @Override
    public void processElement(IncidentInput in, Context ctx, Collector<Event> out)
            throws Exception {
        long watermark = ctx.timerService().currentWatermark();
        if (in.ts() <= watermark) {
            take(in, ctx.timerService(), watermark + 1);
            return;
        }
        List<IncidentInput> at = buffered.get(in.ts());
        List<IncidentInput> list = at == null ? new ArrayList<>() : at;
        list.add(in);
        buffered.put(in.ts(), list);
        ctx.timerService().registerEventTimeTimer(in.ts());
    }

    @Override
    public void onTimer(long ts, OnTimerContext ctx, Collector<Event> out) throws Exception {
        List<IncidentInput> due = buffered.get(ts);
        if (due != null) {
            buffered.remove(ts);
            for (IncidentInput in : due) {
                take(in, ctx.timerService(), ts);
            }
        }
        Long at = localiseAt.value();
        if (at != null && at == ts) {
            localiseAt.clear();
            localise(ts, out);
        }
    }

    /** Applies one input to its link; a change in what is degraded localises settle later. */
    private void take(IncidentInput in, TimerService timers, long earliest) throws Exception {
        LinkView v = links.get(in.link());
        if (v == null) {
            v = new LinkView(in.src(), in.dst());
        }
        boolean changed = v.apply(in);
        links.put(in.link(), v);
        if (changed && localiseAt.value() == null) {
            long at = Math.max(in.ts() + p.settle().toMillis(), earliest);
            timers.registerEventTimeTimer(at);
            localiseAt.update(at);
        }
    }

    private void localise(long ts, Collector<Event> out) throws Exception {
        Map<String, LinkView> all = current(ts);
        Map<String, OpenIncident> open = new HashMap<>();
        Set<String> openAt = new HashSet<>();
        for (Map.Entry<String, OpenIncident> e : incidents.entries()) {
            open.put(e.getKey(), e.getValue());
            openAt.add(e.getValue().key());
        }
        List<Finding> findings = Localiser.localise(all, ts, p, openAt);
        for (IncidentChange c : IncidentBook.reconcile(open, findings, ts)) {
            long opened = c.before() == null ? ts : c.before().openedTs;
            Event e = IncidentEvents.of(c, all, ts, opened);
            out.collect(e);
            if (c.type() == IncidentChange.Type.RESOLVED) {
                incidents.remove(c.id());
            } else {
                incidents.put(
                        c.id(),
                        new OpenIncident(
                                c.id(),
                                c.finding().symptom(),
                                c.finding().location(),
                                opened,
                                e.links()));
            }
        }
    }

    /** Every link's view, less those not heard of for the state TTL and not degraded (dropped). */
    private Map<String, LinkView> current(long ts) throws Exception {
        Map<String, LinkView> all = new HashMap<>();
        Iterator<Map.Entry<String, LinkView>> it = links.iterator();
        while (it.hasNext()) {
            Map.Entry<String, LinkView> e = it.next();
            if (!e.getValue().degraded() && e.getValue().lastSeen < ts - ttlMs) {
                it.remove();
            } else {
                all.put(e.getKey(), e.getValue());
            }
        }
        return all;
    }
}
