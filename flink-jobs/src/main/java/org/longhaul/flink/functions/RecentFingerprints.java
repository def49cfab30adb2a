package org.longhaul.flink.functions;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The fingerprints (64-bit hashes) of the last {@code capacity} distinct payloads, oldest
 * evicted first: bounded memory whatever arrives.
 */
public final class RecentFingerprints {
    private final int capacity;
    private final LinkedHashSet<Long> set = new LinkedHashSet<>();

    public RecentFingerprints(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
    }

    /** Adds a fingerprint; false when it was already there (a replay). */
    public boolean add(long fingerprint) {
        if (!set.add(fingerprint)) {
            return false;
        }
        if (set.size() > capacity) {
            Iterator<Long> oldest = set.iterator();
            oldest.next();
            oldest.remove();
        }
        return true;
    }

    public int size() {
        return set.size();
    }

    /** Oldest first: adding them in this order rebuilds the same set. */
    public List<Long> inOrder() {
        return new ArrayList<>(set);
    }

    /** 64-bit FNV-1a of the bytes, then a finalizing mix: collisions among 20k payloads ~1e-11. */
    public static long of(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h;
    }
}
