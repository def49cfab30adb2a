package org.longhaul.flink.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RecentFingerprintsTest {
    @Test
    void shouldAgreeWithALinkedSetOnEveryAddWhateverCollidesOrWraps() {
        SplittableRandom rnd = new SplittableRandom(18);
        for (int capacity : new int[] {1, 2, 3, 7, 64, 1000}) {
            for (long range : new long[] {4, capacity + 3L, 4L * capacity, Long.MAX_VALUE}) {
                RecentFingerprints r = new RecentFingerprints(capacity);
                LinkedFingerprints m = new LinkedFingerprints(capacity);
                for (int i = 0; i < 20 * capacity + 200; i++) {
                    // small ranges repeat values and hit 0 (the table's empty marker) and negatives
                    long fp =
                            range == Long.MAX_VALUE
                                    ? rnd.nextLong()
                                    : rnd.nextLong(range) - range / 2;
                    assertEquals(
                            m.add(fp), r.add(fp), () -> "capacity " + capacity + ", add " + fp);
                    assertEquals(m.size(), r.size());
                }
                assertEquals(m.inOrder(), r.inOrder(), "capacity " + capacity + ", range " + range);
            }
        }
    }

    @Test
    void shouldKeepFingerprintsWhoseHomesCollideFindableAfterEvictions() {
        // many values in a table of 8 slots: probe chains wrap around its end and are cut by
        // evictions
        RecentFingerprints r = new RecentFingerprints(3);
        LinkedFingerprints m = new LinkedFingerprints(3);
        for (long fp = -50; fp <= 50; fp++) {
            for (long again : new long[] {fp, fp - 1, fp - 2, fp - 3}) {
                assertEquals(m.add(again), r.add(again), "add " + again);
            }
        }
        assertEquals(m.inOrder(), r.inOrder());
    }

    @Test
    void shouldRebuildTheSameSetFromItsOwnOrder() {
        RecentFingerprints r = new RecentFingerprints(5);
        for (long fp = 1; fp <= 12; fp++) {
            r.add(fp * 0x1234567L);
        }
        RecentFingerprints again = new RecentFingerprints(5);
        r.inOrder().forEach(again::add);
        assertEquals(r.inOrder(), again.inOrder());
        List<Long> kept = r.inOrder();
        kept.forEach(fp -> assertEquals(false, again.add(fp)));
    }

    @Test
    void shouldRefuseACapacityItCannotHold() {
        assertThrows(IllegalArgumentException.class, () -> new RecentFingerprints(0));
        assertThrows(IllegalArgumentException.class, () -> new RecentFingerprints((1 << 28) + 1));
    }
}
