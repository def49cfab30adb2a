package org.longhaul.flink.functions;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What {@link RecentFingerprints} promises, written the obvious way (the job's structure until
 * 2026-11-25): the model its test checks it against, and the baseline of its benchmark.
 */
public final class LinkedFingerprints {
    private final int capacity;
    private final LinkedHashSet<Long> set = new LinkedHashSet<>();

    public LinkedFingerprints(int capacity) {
        this.capacity = capacity;
    }

    public boolean add(long fp) {
        if (!set.add(fp)) {
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

    public List<Long> inOrder() {
        return new ArrayList<>(set);
    }
}
