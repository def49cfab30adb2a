package org.longhaul.flink.functions.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Links;

class StaggerTest {
    private static final Stagger MINUTE = new Stagger(Duration.ofMinutes(1));

    @Test
    void tenThousandLinksSpreadEvenlyOverTheMinuteInWholeSeconds() {
        Map<Long, Integer> perSecond = new HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            for (String protocol : List.of("tcp", "path")) {
                long off = MINUTE.offsetMs(Links.key("bench-src-" + i, "bench-dst-" + i, protocol));
                assertTrue(off >= 0 && off < 60_000 && off % 1000 == 0, "offset " + off);
                perSecond.merge(off, 1, Integer::sum);
            }
        }
        assertEquals(60, perSecond.size());
        // 20,000 statistics a minute: ~333 a second; none of the 60 seconds takes more than 1.3×
        // that
        int max = perSecond.values().stream().max(Integer::compare).orElseThrow();
        assertTrue(max < 1.3 * 20_000 / 60, "busiest second " + max + " of " + perSecond);
    }

    @Test
    void aKeysOffsetNeverChangesBecauseWindowsInCheckpointsDependOnIt() {
        // a changed hash would split every link's windows in two at an upgrade
        assertEquals(
                MINUTE.offsetMs("cern|lyon|tcp"), MINUTE.offsetMs(new String("cern|lyon|tcp")));
        assertEquals(
                List.of(26_000L, 27_000L, 15_000L),
                List.of(
                        MINUTE.offsetMs("cern|lyon|tcp"),
                        MINUTE.offsetMs("cern|lyon|path"),
                        MINUTE.offsetMs("slac|oxford|icmp")));
    }

    @Test
    void zeroOrOneSecondIsAlignedAndMoreThanAMinuteIsRefused() {
        assertEquals(0, Stagger.aligned().offsetMs("cern|lyon|tcp"));
        assertEquals(0, new Stagger(Duration.ofSeconds(1)).offsetMs("cern|lyon|tcp"));
        assertTrue(new Stagger(Duration.ofSeconds(10)).offsetMs("cern|lyon|path") < 10_000);
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class, () -> new Stagger(Duration.ofMinutes(2)));
        assertTrue(e.getMessage().contains("--stats-stagger"), e.getMessage());
    }

    @Test
    void theAssignerPutsAKeysSamplesInWindowsStartingAtItsOffset() {
        StaggeredTumblingWindows<String> minutes =
                new StaggeredTumblingWindows<>(Duration.ofMinutes(1), MINUTE, k -> k);
        StaggeredTumblingWindows<String> hours =
                new StaggeredTumblingWindows<>(Duration.ofHours(1), MINUTE, k -> k);
        String key = "cern|lyon|path";
        long off = MINUTE.offsetMs(key);
        long hour = 1_325_746_800_000L; // a whole hour
        assertEquals(
                List.of(new TimeWindow(hour - 60_000 + off, hour + off)),
                minutes.assignWindows(key, hour + off - 1, null));
        assertEquals(
                List.of(new TimeWindow(hour + off, hour + 60_000 + off)),
                minutes.assignWindows(key, hour + off, null));
        assertEquals(
                List.of(new TimeWindow(hour + off, hour + 3_600_000 + off)),
                hours.assignWindows(key, hour + off + 59 * 60_000, null));
        assertThrows(
                IllegalArgumentException.class,
                () -> new StaggeredTumblingWindows<String>(Duration.ofSeconds(30), MINUTE, k -> k));
    }
}
