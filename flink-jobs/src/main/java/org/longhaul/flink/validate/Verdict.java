package org.longhaul.flink.validate;

/**
 * What {@link CompiledSchema} can say of a message: certainly valid, certainly invalid, or not sure
 * (a keyword it does not compile, or a case where its reading and networknt's could differ). Only
 * {@link #VALID} skips networknt; the other two go to it for the verdict and the reasons, so a
 * doubt costs time, never a wrong answer.
 */
enum Verdict {
    VALID,
    INVALID,
    UNSURE;

    /** Both hold (the keywords of one schema, allOf). */
    Verdict and(Verdict other) {
        if (this == INVALID || other == INVALID) {
            return INVALID;
        }
        return this == UNSURE || other == UNSURE ? UNSURE : VALID;
    }

    /** Either holds (anyOf, a list of types). */
    Verdict or(Verdict other) {
        if (this == VALID || other == VALID) {
            return VALID;
        }
        return this == UNSURE || other == UNSURE ? UNSURE : INVALID;
    }

    static Verdict of(boolean holds) {
        return holds ? VALID : INVALID;
    }
}
