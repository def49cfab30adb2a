package org.longhaul.flink.bench;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Shared in this JVM by the four {@link BenchSource}s of one run (found by name, as a deserialized
 * source cannot carry it): each source publishes the event time of its next record, and may emit a
 * record only if it is no more than {@link #SLACK_MS} (the job's out-of-orderness) ahead of the
 * slowest source — as Kafka partitions filled by live agents would be — so that the watermark, the
 * minimum of the sources', keeps up and windows fire as in production. The driver moves a gate in
 * event time: sources stop before it, which is how a week of state is built and then one more
 * minute fed.
 */
public final class BenchClock {
    public static final long SLACK_MS = 120_000;
    private static final Map<String, BenchClock> CLOCKS = new ConcurrentHashMap<>();
    private static final ScheduledExecutorService TICKER =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "bench-clock-ticker");
                        t.setDaemon(true);
                        return t;
                    });
    private static volatile CompletableFuture<Void> tick = new CompletableFuture<>();

    static {
        TICKER.scheduleAtFixedRate(
                () -> {
                    CompletableFuture<Void> old = tick;
                    tick = new CompletableFuture<>();
                    old.complete(null);
                },
                2,
                2,
                TimeUnit.MILLISECONDS);
    }

    private final AtomicLongArray next = new AtomicLongArray(WeekOfProbes.Kind.values().length);
    private final AtomicLongArray emitted = new AtomicLongArray(WeekOfProbes.Kind.values().length);
    private final AtomicLong gate = new AtomicLong();

    private BenchClock(long gate) {
        this.gate.set(gate);
        for (int i = 0; i < next.length(); i++) {
            next.set(i, Long.MIN_VALUE);
        }
    }

    public static BenchClock create(String name, long gate) {
        BenchClock c = new BenchClock(gate);
        CLOCKS.put(name, c);
        return c;
    }

    static BenchClock get(String name) {
        BenchClock c = CLOCKS.get(name);
        if (c == null) {
            throw new IllegalStateException("no bench clock " + name + " in this JVM");
        }
        return c;
    }

    public static void remove(String name) {
        CLOCKS.remove(name);
    }

    /** A future completed within a few milliseconds: when a blocked source should look again. */
    static CompletableFuture<Void> tick() {
        return tick;
    }

    void publish(WeekOfProbes.Kind kind, long nextTs, long count) {
        next.set(kind.ordinal(), nextTs);
        emitted.set(kind.ordinal(), count);
    }

    /**
     * Whether a source may emit its next record, of time ts: before the gate and not too far ahead
     * of the others.
     */
    boolean mayEmit(WeekOfProbes.Kind kind, long ts) {
        if (ts >= gate.get()) {
            return false;
        }
        for (int i = 0; i < next.length(); i++) {
            if (next.get(i) == Long.MIN_VALUE) {
                return false; // not every source has started: none runs ahead of the others
            }
            if (i != kind.ordinal() && ts > next.get(i) + SLACK_MS) {
                return false;
            }
        }
        return true;
    }

    public void openGate(long until) {
        gate.set(until);
    }

    /**
     * True when every source has emitted everything before the gate (each has published a next
     * record at or after it).
     */
    public boolean allAtGate() {
        for (int i = 0; i < next.length(); i++) {
            if (next.get(i) < gate.get()) {
                return false;
            }
        }
        return true;
    }

    public long emitted() {
        long sum = 0;
        for (int i = 0; i < emitted.length(); i++) {
            sum += emitted.get(i);
        }
        return sum;
    }

    public long emitted(WeekOfProbes.Kind kind) {
        return emitted.get(kind.ordinal());
    }
}
