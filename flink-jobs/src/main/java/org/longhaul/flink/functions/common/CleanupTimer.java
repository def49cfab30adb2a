package org.longhaul.flink.functions.common;

import java.io.IOException;
import java.time.Duration;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.State;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.TimerService;

/**
 * One event-time timer per key that fires when the key has had no data for {@code ttl}: the
 * detector then drops the key's state. Records do not move the timer: each only raises the key's
 * expiry ({@code ts + ttl}, never earlier). When the timer fires before that expiry it is set again
 * at the expiry, so a key with data every second costs one state write per record and one timer per
 * ttl instead of a timer deletion and registration per record (the timer queue's HashMap and heap
 * showed at ~12 % of the TaskManager's CPU with 10k links).
 */
public final class CleanupTimer {
    private final ValueState<Long> at;
    private final ValueState<Long> until;
    private final long ttlMs;

    public CleanupTimer(RuntimeContext rc, String name, Duration ttl) {
        this.at = rc.getState(new ValueStateDescriptor<>(name + "-cleanup-at", Types.LONG));
        this.until = rc.getState(new ValueStateDescriptor<>(name + "-cleanup-until", Types.LONG));
        this.ttlMs = ttl.toMillis();
    }

    /** Data seen at {@code ts}: the key expires no earlier than ts + ttl. */
    public void touch(TimerService timers, long ts) throws IOException {
        long next = ts + ttlMs;
        Long expiry = until.value();
        if (expiry != null && expiry >= next) {
            return;
        }
        until.update(next);
        if (at.value() == null) {
            timers.registerEventTimeTimer(next);
            at.update(next);
        }
    }

    /**
     * Whether the timer firing at {@code timestamp} is this cleanup timer and the key has had no
     * data for ttl. When it is this timer but newer data moved the expiry, the timer is set again
     * at the expiry and this returns false.
     */
    public boolean expired(TimerService timers, long timestamp) throws IOException {
        Long v = at.value();
        if (v == null || v != timestamp) {
            return false;
        }
        Long expiry = until.value();
        if (expiry != null && expiry > timestamp) {
            timers.registerEventTimeTimer(expiry);
            at.update(expiry);
            return false;
        }
        return true;
    }

    /**
     * When the timer firing at {@code timestamp} is this cleanup timer and the key has had no data
     * for ttl ({@link #expired}): clears the key's {@code states} and the timer's own.
     */
    public void clearIfExpired(TimerService timers, long timestamp, State... states)
            throws IOException {
        if (expired(timers, timestamp)) {
            for (State s : states) {
                s.clear();
            }
            clear();
        }
    }

    /** Nothing left to clean: delete the timer and forget it. */
    public void cancel(TimerService timers) throws IOException {
        Long old = at.value();
        if (old != null) {
            timers.deleteEventTimeTimer(old);
        }
        clear();
    }

    public void clear() {
        at.clear();
        until.clear();
    }
}
