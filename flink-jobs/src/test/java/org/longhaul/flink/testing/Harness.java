package org.longhaul.flink.testing;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.Event;

/**
 * A detector under Flink's keyed operator test harness: feed records with their event time, drive
 * watermarks, read the events (each checked against event.v1), count timers and state.
 */
public final class Harness<IN> implements AutoCloseable {
    private final KeyedOneInputStreamOperatorTestHarness<String, IN, Event> h;
    private int taken;

    private Harness(KeyedOneInputStreamOperatorTestHarness<String, IN, Event> h) {
        this.h = h;
    }

    public static <IN> Harness<IN> of(
            KeyedProcessFunction<String, IN, Event> fn, KeySelector<IN, String> key)
            throws Exception {
        return new Harness<>(
                ProcessFunctionTestHarnesses.forKeyedProcessFunction(fn, key, Types.STRING));
    }

    public Harness<IN> add(IN value, long ts) throws Exception {
        h.processElement(value, ts);
        return this;
    }

    public Harness<IN> watermark(long ts) throws Exception {
        h.processWatermark(ts);
        return this;
    }

    /** Every event emitted so far, each validated against the contract. */
    public List<Event> events() {
        List<Event> all = h.extractOutputValues();
        ContractAssert.assertAllValid(Contract.EVENT, all);
        return all;
    }

    /** The events emitted since the last call. */
    public List<Event> newEvents() {
        List<Event> all = events();
        List<Event> fresh = new ArrayList<>(all.subList(taken, all.size()));
        taken = all.size();
        return fresh;
    }

    /** What the function wrote to a side output so far. */
    public <T> List<T> sideOutput(org.apache.flink.util.OutputTag<T> tag) {
        var out = h.getSideOutput(tag);
        return out == null ? List.of() : out.stream().map(r -> r.getValue()).toList();
    }

    public int timers() {
        return h.numEventTimeTimers();
    }

    public int stateEntries() {
        return h.numKeyedStateEntries();
    }

    @Override
    public void close() throws Exception {
        h.close();
    }
}
