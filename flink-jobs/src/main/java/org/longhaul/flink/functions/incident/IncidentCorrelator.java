package org.longhaul.flink.functions.incident;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
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
    private transient ValueState<Long> pending;

    public IncidentCorrelator(IncidentParams params, Duration stateTtl) {
        this.p = params;
        this.ttlMs = stateTtl.toMillis();
    }

    @Override
    public void open(OpenContext context) {
        links =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "incident-links",
                                        Types.STRING,
                                        OneWriteType.of(LinkView.class)));
        incidents =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "incidents",
                                        Types.STRING,
                                        OneWriteType.of(OpenIncident.class)));
        pending =
                getRuntimeContext()
                        .getState(new ValueStateDescriptor<>("incident-pending", Types.LONG));
    }

    @Override
    public void processElement(IncidentInput in, Context ctx, Collector<Event> out)
            throws Exception {
        LinkView v = links.get(in.link());
        if (v == null) {
            v = new LinkView(in.src(), in.dst());
        }
        boolean changed = v.apply(in);
        links.put(in.link(), v);
        if (changed && pending.value() == null) {
            long at = in.ts() + p.settle().toMillis();
            ctx.timerService().registerEventTimeTimer(at);
            pending.update(at);
        }
    }

    @Override
    public void onTimer(long ts, OnTimerContext ctx, Collector<Event> out) throws Exception {
        pending.clear();
        Map<String, LinkView> all = current(ts);
        Map<String, OpenIncident> open = new HashMap<>();
        Set<String> openAt = new HashSet<>();
        for (Map.Entry<String, OpenIncident> e : incidents.entries()) {
            open.put(e.getKey(), e.getValue());
            openAt.add(e.getValue().location().key());
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
                        new OpenIncident(c.id(), c.finding().location(), opened, e.links()));
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
