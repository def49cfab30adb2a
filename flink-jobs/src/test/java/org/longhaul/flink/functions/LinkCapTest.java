package org.longhaul.flink.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LinkCapTest {
    private static final long T = 1_800_000_000_000L;
    private static final long DAY = 86_400_000L;
    private final LinkCap.Budget budget = new LinkCap(2, Duration.ofDays(7)).budget();

    @Test
    void aSrcOpensUpToItsCapAndKeepsReportingOnThem() {
        assertNull(budget.admit("a", "x", T));
        assertNull(budget.admit("a", "y", T));
        assertEquals(
                "too_many_links: src \"a\" already reports on 2 dsts in this stream, the most one"
                        + " src may (--max-links-per-src 2); a dst silent for PT168H makes room",
                budget.admit("a", "z", T));
        assertNull(budget.admit("a", "x", T + DAY), "a link it has keeps going");
        assertNull(budget.admit("b", "z", T), "another src has a budget of its own");
    }

    @Test
    void aDstSilentForTheForgetTimeMakesRoom() {
        budget.admit("a", "x", T);
        budget.admit("a", "y", T + 2 * DAY);
        assertEquals('t', budget.admit("a", "z", T + 6 * DAY).charAt(0), "x is 6 days silent");
        assertNull(budget.admit("a", "z", T + 7 * DAY + 1), "x, 7 days silent, makes room");
        assertEquals('t', budget.admit("a", "x", T + 7 * DAY + 2).charAt(0), "y and z hold it");
    }

    @Test
    void aDstThatKeepsReportingIsNotForgotten() {
        budget.admit("a", "x", T);
        budget.admit("a", "y", T);
        for (long t = T; t <= T + 10 * DAY; t += DAY) {
            assertNull(budget.admit("a", "x", t));
        }
        assertNull(budget.admit("a", "z", T + 10 * DAY), "y, silent 10 days, made room");
        assertEquals('t', budget.admit("a", "y", T + 10 * DAY + 1).charAt(0), "x is still held");
    }

    @Test
    void aCapBelowOneOrANonPositiveForgetTimeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LinkCap(0, Duration.ofDays(1)));
        assertThrows(IllegalArgumentException.class, () -> new LinkCap(1, Duration.ZERO));
    }
}
