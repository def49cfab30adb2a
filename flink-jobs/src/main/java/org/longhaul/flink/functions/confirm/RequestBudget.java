package org.longhaul.flink.functions.confirm;

import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.state.OneWriteType;

/**
 * A budget of probe requests per key (a sending host, or "*" for the whole mesh): at most max in
 * any window of event time. What passes goes on; what does not is reported unserved on the side
 * output, the first turned down in each window (the rest are alike). State: the times of the key's
 * recent requests (at most max longs).
 */
public final class RequestBudget extends KeyedProcessFunction<String, ProbeRequest, ProbeRequest> {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final int max;
    private final Duration window;
    private final OutputTag<Event> unserved;
    private transient ValueState<long[]> recent;
    private transient ValueState<Long> reported;

    /** name says whose budget it is in the unserved events ("host", "mesh"). */
    public RequestBudget(String name, int max, Duration window, OutputTag<Event> unserved) {
        this.name = name;
        this.max = max;
        this.window = window;
        this.unserved = unserved;
    }

    @Override
    public void open(OpenContext context) {
        recent = OneWriteType.valueState(getRuntimeContext(), "budget-" + name, long[].class);
        reported =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "budget-" + name + "-reported",
                                        TypeInformation.of(Long.class)));
    }

    @Override
    public void processElement(ProbeRequest r, Context ctx, Collector<ProbeRequest> out)
            throws Exception {
        long[] times =
                ConfirmationPlanner.recent(
                        recent.value() == null ? new long[0] : recent.value(),
                        r.ts(),
                        window.toMillis());
        if (times.length >= max) {
            // reported once per budget window: the first request it turns down
            if (reported.value() == null || reported.value() < times[0]) {
                reported.update(r.ts());
                ctx.output(unserved, Unserved.budget(r, name, max, window));
            }
            recent.update(times);
            return;
        }
        recent.update(ConfirmationPlanner.append(times, r.ts()));
        out.collect(r);
    }

    /** The key of the mesh-wide budget. */
    public static final String MESH = "*";
}
