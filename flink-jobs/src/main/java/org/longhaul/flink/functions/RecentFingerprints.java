package org.longhaul.flink.functions;

import java.util.ArrayList;
import java.util.List;

/**
 * The fingerprints (64-bit hashes) of the last {@code capacity} distinct payloads, oldest evicted
 * first: bounded memory whatever arrives.
 *
 * <p>Every raw message passes here on its source's thread, so it holds primitives only: a ring of
 * the fingerprints in the order they came, and an open-addressing table (linear probing, deletion
 * by backward shift, no tombstones) to find one. A {@code LinkedHashSet<Long>} did the same with a
 * boxed Long and a linked entry per message: 7 % of the source thread's CPU samples in the
 * throughput benchmark (docs/benchmarks-log.md, <i>2026-11-25: Flink throughput, state keys in one
 * write, a replay filter without boxes</i>).
 */
public final class RecentFingerprints {
    private static final long EMPTY = 0L;
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final int capacity;

    /** Fingerprints oldest first, from {@code head}, {@code size} of them, wrapping. */
    private final long[] ring;

    private int head;
    private int size;

    /** The table: a power of two at least twice the capacity, so probes stay short. */
    private final long[] slots;

    private final int mask;

    /** 0 is the table's empty marker, so a fingerprint of 0 is kept apart. */
    private boolean zeroHeld;

    /** The last topic {@link #add(String, byte[])} saw, and its {@link #seed}. */
    private String seededTopic;

    private long seed;

    public RecentFingerprints(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        if (capacity > 1 << 28) {
            throw new IllegalArgumentException("capacity must be at most 2^28, was " + capacity);
        }
        this.capacity = capacity;
        this.ring = new long[capacity];
        this.slots = new long[Integer.highestOneBit(capacity) << 2];
        this.mask = slots.length - 1;
    }

    /**
     * Adds the fingerprint of a payload as it came on its topic ({@link #of(long, byte[])}); false
     * when it was already there (a replay). A reader takes one topic after another, so the last
     * topic's seed is kept.
     */
    public boolean add(String topic, byte[] payload) {
        String t = topic == null ? "" : topic;
        if (!t.equals(seededTopic)) {
            seededTopic = t;
            seed = seed(t);
        }
        return add(of(seed, payload));
    }

    /** Adds a fingerprint; false when it was already there (a replay). */
    public boolean add(long fingerprint) {
        if (!put(fingerprint)) {
            return false;
        }
        if (size == capacity) { // the table has room for one more than the capacity
            remove(ring[head]);
            ring[head] = fingerprint;
            head = next(head);
        } else {
            ring[(head + size) % capacity] = fingerprint;
            size++;
        }
        return true;
    }

    public int size() {
        return size;
    }

    /** Oldest first: adding them in this order rebuilds the same set. */
    public List<Long> inOrder() {
        List<Long> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(ring[(head + i) % capacity]);
        }
        return out;
    }

    /**
     * The hash state after a topic's name and a separator no topic name holds: the seed of {@link
     * #of(long, byte[])} for that topic's payloads.
     */
    public static long seed(String topic) {
        long h = FNV_OFFSET;
        for (int i = 0; i < topic.length(); i++) {
            h ^= topic.charAt(i) & 0xffff;
            h *= FNV_PRIME;
        }
        h ^= 0xff;
        return h * FNV_PRIME;
    }

    /** 64-bit FNV-1a of the bytes, then a finalizing mix: collisions among 20k payloads ~1e-11. */
    public static long of(byte[] bytes) {
        return of(FNV_OFFSET, bytes);
    }

    /**
     * The fingerprint of a payload as it came on one topic: {@code seed} is {@link #seed} of the
     * topic, so equal bytes on two topics (two agents' own topics) are two payloads.
     */
    public static long of(long seed, byte[] bytes) {
        long h = seed;
        for (byte b : bytes) {
            h ^= b & 0xff;
            h *= FNV_PRIME;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h;
    }

    /**
     * One probe: false when the fingerprint is in the table, else puts it in the empty slot ending
     * its chain.
     */
    private boolean put(long fp) {
        if (fp == EMPTY) {
            boolean added = !zeroHeld;
            zeroHeld = true;
            return added;
        }
        int i = home(fp);
        for (; slots[i] != EMPTY; i = (i + 1) & mask) {
            if (slots[i] == fp) {
                return false;
            }
        }
        slots[i] = fp;
        return true;
    }

    /** Removes a fingerprint that is in the table, then moves back the ones probed past it. */
    private void remove(long fp) {
        if (fp == EMPTY) {
            zeroHeld = false;
            return;
        }
        int gap = home(fp);
        while (slots[gap] != fp) {
            gap = (gap + 1) & mask;
        }
        for (int j = (gap + 1) & mask; slots[j] != EMPTY; j = (j + 1) & mask) {
            int h = home(slots[j]);
            // slots[j] may fill the gap unless its home lies cyclically in (gap, j]
            boolean stays = gap <= j ? gap < h && h <= j : gap < h || h <= j;
            if (!stays) {
                slots[gap] = slots[j];
                gap = j;
            }
        }
        slots[gap] = EMPTY;
    }

    private int home(long fp) {
        long h = fp * 0x9E3779B97F4A7C15L; // fingerprints restored or from tests need not be mixed
        return (int) (h >>> 32) & mask;
    }

    private int next(int i) {
        return i + 1 == capacity ? 0 : i + 1;
    }
}
