package org.longhaul.flink.records;

/**
 * The top-level {@code ts} of a message read straight off its bytes, in one pass over the fields
 * before it, without a JSON parser: what every raw message costs before validation (its event time
 * for the watermarks). It decides only the plain case — an object whose members before {@code ts}
 * are ASCII names with scalar values of strict JSON, and {@code ts} a plain integer — and answers
 * {@link #UNSURE} for anything else (an escape, a nested value, a non-ASCII byte, a float, a BOM,
 * the end of the bytes), so that {@link Json#peekTs(byte[])} asks Jackson and answers as it does.
 * Linear in the bytes it reads, no allocation.
 */
final class TsScan {
    /** Not decided here: ask Jackson. */
    static final long UNSURE = -1;

    /**
     * Longer names and values are left to Jackson, whose read constraints may refuse them (hosts
     * have up to 253 bytes).
     */
    private static final int MAX_TOKEN = 256;

    /** More digits than a long holds surely is left to Jackson (its BIG_INTEGER case). */
    private static final int MAX_DIGITS = 18;

    private TsScan() {}

    /**
     * The value of the first top-level {@code ts} when it is a plain non-negative integer, else
     * {@link #UNSURE}.
     */
    static long ts(byte[] b) {
        int i = space(b, 0);
        if (i >= b.length || b[i] != '{') {
            return UNSURE;
        }
        i = space(b, i + 1);
        while (i < b.length && b[i] == '"') {
            int name = i + 1;
            int end = string(b, name);
            if (end < 0) {
                return UNSURE;
            }
            boolean isTs = end - name == 2 && b[name] == 't' && b[name + 1] == 's';
            i = space(b, end + 1);
            if (i >= b.length || b[i] != ':') {
                return UNSURE;
            }
            i = space(b, i + 1);
            if (isTs) {
                return integer(b, i);
            }
            i = scalar(b, i);
            if (i < 0) {
                return UNSURE;
            }
            i = space(b, i);
            if (i >= b.length || b[i] != ',') {
                return UNSURE;
            }
            i = space(b, i + 1);
        }
        return UNSURE;
    }

    private static int space(byte[] b, int i) {
        while (i < b.length && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
            i++;
        }
        return i;
    }

    /**
     * The index of the closing quote of a string whose content starts at {@code i}: printable
     * ASCII, no escape; else -1.
     */
    private static int string(byte[] b, int i) {
        int limit = Math.min(b.length, i + MAX_TOKEN);
        for (; i < limit; i++) {
            byte c = b[i];
            if (c == '"') {
                return i;
            }
            if (c < 0x20 || c == '\\' || c == 0x7f) { // negative: a byte of a multi-byte character
                return -1;
            }
        }
        return -1;
    }

    /**
     * The index after a string, strict number or literal starting at {@code i} and followed by a
     * delimiter; else -1.
     */
    private static int scalar(byte[] b, int i) {
        if (i >= b.length) {
            return -1;
        }
        int end;
        byte c = b[i];
        if (c == '"') {
            end = string(b, i + 1);
            return end < 0 ? -1 : end + 1;
        } else if (c == 't') {
            end = literal(b, i, "true");
        } else if (c == 'f') {
            end = literal(b, i, "false");
        } else if (c == 'n') {
            end = literal(b, i, "null");
        } else {
            end = number(b, i);
        }
        return end >= 0 && end < b.length && delimiter(b[end]) ? end : -1;
    }

    private static int literal(byte[] b, int i, String word) {
        if (i + word.length() > b.length) {
            return -1;
        }
        for (int k = 0; k < word.length(); k++) {
            if (b[i + k] != word.charAt(k)) {
                return -1;
            }
        }
        return i + word.length();
    }

    /**
     * The index after a number of JSON's grammar, -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?,
     * else -1.
     */
    private static int number(byte[] b, int i) {
        int start = i;
        if (i < b.length && b[i] == '-') {
            i++;
        }
        int digits = digits(b, i);
        if (digits == 0 || (digits > 1 && b[i] == '0')) {
            return -1;
        }
        i += digits;
        if (i < b.length && b[i] == '.') {
            int frac = digits(b, i + 1);
            if (frac == 0) {
                return -1;
            }
            i += 1 + frac;
        }
        if (i < b.length && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < b.length && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int exp = digits(b, i);
            if (exp == 0) {
                return -1;
            }
            i += exp;
        }
        return i - start > MAX_TOKEN ? -1 : i;
    }

    /**
     * {@code ts}'s value: a non-negative integer without a leading zero, followed by a delimiter;
     * else {@link #UNSURE}.
     */
    private static long integer(byte[] b, int i) {
        int digits = digits(b, i);
        if (digits == 0 || digits > MAX_DIGITS || (digits > 1 && b[i] == '0')) {
            return UNSURE;
        }
        int end = i + digits;
        if (end >= b.length || !delimiter(b[end])) {
            return UNSURE;
        }
        long v = 0;
        for (int k = i; k < end; k++) {
            v = v * 10 + (b[k] - '0');
        }
        return v;
    }

    private static int digits(byte[] b, int i) {
        int n = 0;
        while (i + n < b.length && b[i + n] >= '0' && b[i + n] <= '9') {
            n++;
        }
        return n;
    }

    /** What may follow a value inside an object: whitespace, a comma or the closing brace. */
    private static boolean delimiter(byte c) {
        return c == ',' || c == '}' || c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }
}
