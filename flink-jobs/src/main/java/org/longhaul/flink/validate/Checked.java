package org.longhaul.flink.validate;

import org.longhaul.flink.records.DeadLetter;

/**
 * The outcome of checking one raw message: the typed record, or the dead letter that replaces it.
 */
public record Checked<T>(T value, DeadLetter deadLetter) {

    public boolean valid() {
        return value != null;
    }
}
