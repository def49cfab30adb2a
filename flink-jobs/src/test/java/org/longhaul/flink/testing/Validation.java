package org.longhaul.flink.testing;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.longhaul.flink.functions.ValidateFunction;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.records.Validated;

/**
 * What a {@link ValidateFunction} made of some raw messages under Flink's operator harness, each at
 * its own event time: the records that went on, the dead letters and the valid messages forwarded
 * as they came.
 */
public record Validation<T>(List<T> samples, List<DeadLetter> deadLetters, List<Validated> valid) {

    public static <T> Validation<T> run(ValidateFunction<T> fn, RawMessage... messages)
            throws Exception {
        try (var h = new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(fn))) {
            h.open();
            for (RawMessage m : messages) {
                h.processElement(m, m.eventTs() == null ? Long.MIN_VALUE : m.eventTs());
            }
            List<DeadLetter> dead = new ArrayList<>();
            var side = h.getSideOutput(ValidateFunction.DEAD_LETTERS);
            if (side != null) {
                side.forEach(r -> dead.add(r.getValue()));
            }
            List<Validated> valid = new ArrayList<>();
            var forwarded = h.getSideOutput(ValidateFunction.VALID);
            if (forwarded != null) {
                forwarded.forEach(r -> valid.add(r.getValue()));
            }
            return new Validation<>(h.extractOutputValues(), dead, valid);
        }
    }
}
