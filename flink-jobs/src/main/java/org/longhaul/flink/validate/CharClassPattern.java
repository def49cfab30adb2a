package org.longhaul.flink.validate;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A schema pattern of the contract's one shape, {@code ^[first][rest]*$} or {@code
 * ^[first][rest]{m,n}$} with classes of plain ASCII characters and ranges (hosts, label names,
 * identifiers), checked by two tables instead of the regex engine: a host is checked twice in every
 * sample, and the JDK's matcher was ~7 % of a message's check (docs/benchmarks-log.md,
 * <i>2026-11-26: Flink throughput, one pass</i>).
 *
 * <p>It only ever says yes: {@link #accepts} is true for a string made of the classes' characters
 * within the count, which the regex then certainly matches; anything else goes to the regex, which
 * keeps the final say (a trailing line break, which {@code $} lets through, included). {@code
 * CharClassPatternTest} holds the two together.
 */
final class CharClassPattern {
    /**
     * ^[class][class]* or {m,n} or {m,}$, each class of single characters and ranges, nothing
     * escaped.
     */
    private static final Pattern SHAPE =
            Pattern.compile(
                    "\\^\\[([^\\[\\]\\\\^&]+)\\]\\[([^\\[\\]\\\\^&]+)\\](?:(\\*)|\\{(\\d+),(\\d*)\\})\\$");

    private final boolean[] first;
    private final boolean[] rest;
    private final int min;
    private final int max;

    private CharClassPattern(boolean[] first, boolean[] rest, int min, int max) {
        this.first = first;
        this.rest = rest;
        this.min = min;
        this.max = max;
    }

    /**
     * The tables of {@code regex}, or null when it is of another shape (the regex alone decides).
     */
    static CharClassPattern of(String regex) {
        Matcher m = SHAPE.matcher(regex);
        if (!m.matches()) {
            return null;
        }
        boolean[] first = table(m.group(1));
        boolean[] rest = table(m.group(2));
        if (first == null || rest == null) {
            return null;
        }
        if (m.group(3) != null) {
            return new CharClassPattern(first, rest, 0, Integer.MAX_VALUE);
        }
        int min = Integer.parseInt(m.group(4));
        int max = m.group(5).isEmpty() ? Integer.MAX_VALUE : Integer.parseInt(m.group(5));
        return min <= max ? new CharClassPattern(first, rest, min, max) : null;
    }

    /** The ASCII characters of a class body ("A-Za-z0-9._:-"), or null for one it does not read. */
    private static boolean[] table(String body) {
        boolean[] in = new boolean[128];
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c >= 128) {
                return null;
            }
            if (i + 2 < body.length() && body.charAt(i + 1) == '-') {
                char to = body.charAt(i + 2);
                if (to >= 128 || to < c) {
                    return null;
                }
                for (char x = c; x <= to; x++) {
                    in[x] = true;
                }
                i += 2;
            } else {
                in[c] = true; // a '-' first or last is itself
            }
        }
        return in;
    }

    /** True when the regex certainly finds a match in {@code s}; false when it must be asked. */
    boolean accepts(String s) {
        int n = s.length();
        if (n == 0 || n - 1 < min || n - 1 > max || !in(first, s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < n; i++) {
            if (!in(rest, s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean in(boolean[] table, char c) {
        return c < 128 && table[c];
    }
}
