package org.longhaul.flink.functions.confirm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.longhaul.flink.testing.Samples.T0;

import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.ProbeRequest;

class RequestBudgetTest {
    private static final OutputTag<Event> TAG =
            new OutputTag<>("t", TypeInformation.of(Event.class));
    private static final long MIN = 60_000;

    private static ProbeRequest req(String dst, long ts) {
        return ProbeRequest.of("s1", dst, "tcp", ts, "loss", "loss seen", ts + 15 * MIN, null);
    }

    @Test
    void aHostGetsAtMostItsRequestsInAnyHourAndTheRestAreReported() throws Exception {
        try (var h =
                ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                        new RequestBudget("host", 2, Duration.ofHours(1), TAG),
                        ProbeRequest::src,
                        Types.STRING)) {
            h.processElement(req("a", T0), T0);
            h.processElement(req("b", T0 + MIN), T0 + MIN);
            h.processElement(req("c", T0 + 2 * MIN), T0 + 2 * MIN);
            h.processElement(req("e", T0 + 3 * MIN), T0 + 3 * MIN);
            assertEquals(
                    List.of("a", "b"),
                    h.extractOutputValues().stream().map(ProbeRequest::dst).toList());
            List<Event> unserved = h.getSideOutput(TAG).stream().map(r -> r.getValue()).toList();
            assertEquals(1, unserved.size(), "once per window: the first turned down");
            assertEquals("host", unserved.get(0).evidence().get("budget"));
            assertEquals("c", unserved.get(0).dst());
            h.processElement(req("d", T0 + 60 * MIN), T0 + 60 * MIN);
            assertEquals(
                    List.of("a", "b", "d"),
                    h.extractOutputValues().stream().map(ProbeRequest::dst).toList(),
                    "an hour after the first, room for one");
        }
    }
}
