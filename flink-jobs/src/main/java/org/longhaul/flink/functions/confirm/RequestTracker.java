package org.longhaul.flink.functions.confirm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.state.OneWriteType;

/**
 * Per link: every request sent waits for the run that answers it (a summary carrying its
 * request_id). One that expires unanswered, or whose run the agent could not start in time
 * (not_started), is reported: probe_request_unserved. An event-time timer at each expiry; state is
 * the requests on their way, removed when answered or reported.
 */
public final class RequestTracker extends KeyedProcessFunction<String, TrackerInput, Event> {
    private static final long serialVersionUID = 1L;

    private transient MapState<String, ProbeRequest> pending;

    @Override
    public void open(OpenContext context) {
        pending =
                OneWriteType.mapState(
                        getRuntimeContext(), "confirm-pending", Types.STRING, ProbeRequest.class);
    }

    @Override
    public void processElement(TrackerInput in, Context ctx, Collector<Event> out)
            throws Exception {
        if (in.request() != null) {
            pending.put(in.request().requestId(), in.request());
            ctx.timerService().registerEventTimeTimer(in.request().expiresTs());
            return;
        }
        RunSeen run = in.run();
        if (run.requestId() == null) {
            return;
        }
        ProbeRequest r = pending.get(run.requestId());
        if (r == null) {
            return;
        }
        pending.remove(run.requestId());
        if (run.notStarted()) {
            out.collect(Unserved.notStarted(r, run));
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Event> out) throws Exception {
        List<String> done = new ArrayList<>();
        for (Map.Entry<String, ProbeRequest> e : pending.entries()) {
            if (e.getValue().expiresTs() <= timestamp) {
                out.collect(Unserved.expired(e.getValue()));
                done.add(e.getKey());
            }
        }
        for (String id : done) {
            pending.remove(id);
        }
    }
}
