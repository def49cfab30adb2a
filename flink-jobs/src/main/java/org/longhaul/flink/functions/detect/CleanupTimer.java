package org.longhaul.flink.functions.detect;

import java.io.IOException;
import java.time.Duration;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.TimerService;

/**
 * One event-time timer per key that fires when the key has had no data for {@code ttl}: the
 * detector then drops the key's state. Each new record moves the timer (never earlier).
 */
public final class CleanupTimer {
    private final ValueState<Long> at;
    private final long ttlMs;

    public CleanupTimer(RuntimeContext rc, String name, Duration ttl) {
        this.at = rc.getState(new ValueStateDescriptor<>(name + "-cleanup-at", Types.LONG));
        this.ttlMs = ttl.toMillis();
    }

    /** Data seen at {@code ts}: push the cleanup to ts + ttl. */
    public void touch(TimerService timers, long ts) throws IOException {
        Long old = at.value();
        long next = ts + ttlMs;
        if (old != null && old >= next) {
            return;
        }
        if (old != null) {
            timers.deleteEventTimeTimer(old);
        }
        timers.registerEventTimeTimer(next);
        at.update(next);
    }

    /** Whether the timer firing at {@code timestamp} is this cleanup timer. */
    public boolean firesAt(long timestamp) throws IOException {
        Long v = at.value();
        return v != null && v == timestamp;
    }

    /** Nothing left to clean: delete the timer and forget it. */
    public void cancel(TimerService timers) throws IOException {
        Long old = at.value();
        if (old != null) {
            timers.deleteEventTimeTimer(old);
        }
        at.clear();
    }

    public void clear() {
        at.clear();
    }
}
