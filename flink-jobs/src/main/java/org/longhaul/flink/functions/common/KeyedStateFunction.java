package org.longhaul.flink.functions.common;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Supplier;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.longhaul.flink.state.OneWriteType;

/**
 * A keyed function with one value of state per key ({@link OneWriteType}), dropped with its {@link
 * CleanupTimer} when the key has had no data for ttl. Subclasses {@link CleanupTimer#touch} the
 * timer with each record's time; those that override {@link #open} or {@link #onTimer} call these.
 *
 * @param <I> the input
 * @param <O> the output
 * @param <S> the state of one key
 */
public abstract class KeyedStateFunction<I, O, S> extends KeyedProcessFunction<String, I, O> {
    private static final long serialVersionUID = 1L;

    private final String stateName;
    private final Class<S> stateType;
    private final String cleanupName;
    private final Duration ttl;
    protected transient ValueState<S> state;
    protected transient CleanupTimer cleanup;

    /**
     * @param stateName the state's descriptor name (savepoints know the state by it)
     * @param cleanupName the prefix of the cleanup timer's state names
     */
    protected KeyedStateFunction(
            String stateName, Class<S> stateType, String cleanupName, Duration ttl) {
        this.stateName = stateName;
        this.stateType = stateType;
        this.cleanupName = cleanupName;
        this.ttl = ttl;
    }

    @Override
    public void open(OpenContext context) {
        state = OneWriteType.valueState(getRuntimeContext(), stateName, stateType);
        cleanup = new CleanupTimer(getRuntimeContext(), cleanupName, ttl);
    }

    /** The key's state, or a fresh one when it has none. */
    protected final S stateOr(Supplier<S> fresh) throws IOException {
        S s = state.value();
        return s == null ? fresh.get() : s;
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<O> out) throws Exception {
        cleanup.clearIfExpired(ctx.timerService(), timestamp, state);
    }
}
