package org.longhaul.flink.functions.confirm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.ContractAssert.assertValid;
import static org.longhaul.flink.testing.Samples.T0;

import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.records.Suspicion;
import org.longhaul.flink.records.SuspicionReason;

class ConfirmationPlannerTest {
    private static final long MIN = 60_000;
    private static final String A = "perfsonar.ihep.ac.cn";
    private static final String B = "cclhcone01.in2p3.fr";

    static KeyedOneInputStreamOperatorTestHarness<String, PlannerInput, ProbeRequest> harness(
            ConfirmParams p) throws Exception {
        return ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                new ConfirmationPlanner(p, Duration.ofDays(7)), PlannerInput::link, Types.STRING);
    }

    static PlannerInput suspect(String probe, long ts, SuspicionReason reason) {
        return PlannerInput.of(
                Suspicion.of(A, B, probe, ts, reason, reason.wire() + " seen", null));
    }

    static PlannerInput run(String probe, long ts, String requestId) {
        return PlannerInput.of(new RunSeen(A, B, probe, ts, requestId, true, false, false, null));
    }

    static void valid(ProbeRequest r) {
        assertValid(Contract.PROBE_REQUEST, r);
    }

    @Test
    void aSuspicionAsksOnceUntilItsRunComesAndTheLinkBudgetBoundsTheRest() throws Exception {
        try (var h = harness(ConfirmParams.defaults())) {
            h.processElement(suspect("tcp-default", T0, SuspicionReason.THROUGHPUT_LOW), T0);
            h.processElement(suspect("tcp-default", T0 + MIN, SuspicionReason.LOSS), T0 + MIN);
            List<ProbeRequest> out = h.extractOutputValues();
            assertEquals(1, out.size(), "one request on its way is enough");
            ProbeRequest r = out.get(0);
            valid(r);
            assertEquals("tcp-default", r.probeId());
            assertEquals("throughput_low", r.reason());
            assertEquals(T0 + 15 * MIN, r.expiresTs());
            // its run comes: the next suspicion asks again, the second of the link's two per 30 min
            h.processElement(run("tcp-default", T0 + 2 * MIN, r.requestId()), T0 + 2 * MIN);
            h.processElement(
                    suspect("tcp-default", T0 + 3 * MIN, SuspicionReason.THROUGHPUT_LOW),
                    T0 + 3 * MIN);
            assertEquals(2, h.extractOutputValues().size());
            h.processElement(
                    run("tcp-default", T0 + 4 * MIN, h.extractOutputValues().get(1).requestId()),
                    T0 + 4 * MIN);
            // a third within the 30 min: not asked, and said so
            h.processElement(
                    suspect("tcp-default", T0 + 5 * MIN, SuspicionReason.THROUGHPUT_LOW),
                    T0 + 5 * MIN);
            h.processElement(
                    suspect("tcp-default", T0 + 6 * MIN, SuspicionReason.THROUGHPUT_LOW),
                    T0 + 6 * MIN);
            assertEquals(2, h.extractOutputValues().size());
            List<Event> unserved =
                    List.copyOf(h.getSideOutput(ConfirmationPlanner.UNSERVED)).stream()
                            .map(x -> x.getValue())
                            .toList();
            assertEquals(1, unserved.size(), "reported once per window");
            Event e = unserved.get(0);
            assertEquals("probe_request_unserved", e.kind());
            assertEquals("link", e.evidence().get("budget"));
            assertTrue(
                    e.message().contains("the link's budget of 2 per 30 min is spent"),
                    e.message());
            assertValid(Contract.EVENT, e);
            // 30 min after the first, room again
            h.processElement(
                    suspect("tcp-default", T0 + 31 * MIN, SuspicionReason.THROUGHPUT_LOW),
                    T0 + 31 * MIN);
            assertEquals(3, h.extractOutputValues().size());
        }
    }

    @Test
    void aLowRunsOwnSuspicionAnswersItsRequestBeforeItsSummaryComes() throws Exception {
        try (var h = harness(ConfirmParams.defaults())) {
            h.processElement(suspect("tcp", T0, SuspicionReason.RTT_SHIFT), T0);
            String id = h.extractOutputValues().get(0).requestId();
            // the run asked for is low, one of the two a collapse needs: its suspicion comes
            // through the detector, its summary straight from the source, either first
            long at = T0 + MIN;
            Suspicion low = new Suspicion(A, B, "tcp", at, "throughput_low", "1 of 2", null, true);
            h.processElement(PlannerInput.of(low), at);
            assertEquals(2, h.extractOutputValues().size(), "the run that decides is asked for");
            h.processElement(run("tcp", at, id), at);
            // a burst's suspicion, or a cheap probe's, answers nothing
            Suspicion burst =
                    new Suspicion(A, B, "tcp", at + MIN, "throughput_low", "burst", null, false);
            h.processElement(PlannerInput.of(burst), at + MIN);
            assertEquals(2, h.extractOutputValues().size(), "the second request is on its way");
        }
    }

    @Test
    void aCheapSignalAsksForTheProbeTheLinkLastRanAndNothingWithout() throws Exception {
        try (var h = harness(ConfirmParams.defaults())) {
            h.processElement(suspect(null, T0, SuspicionReason.ROUTE_CHANGE), T0);
            assertEquals(
                    List.of(), h.extractOutputValues(), "no throughput probe known on the link");
            h.processElement(run("tcp-4h", T0 + MIN, null), T0 + MIN);
            h.processElement(
                    suspect(null, T0 + 2 * MIN, SuspicionReason.ROUTE_CHANGE), T0 + 2 * MIN);
            assertEquals("tcp-4h", h.extractOutputValues().get(0).probeId());
            // a scheduled run of that probe answers it as well as a requested one
            h.processElement(run("tcp-4h", T0 + 3 * MIN, null), T0 + 3 * MIN);
            h.processElement(suspect(null, T0 + 4 * MIN, SuspicionReason.RTT_SHIFT), T0 + 4 * MIN);
            assertEquals(2, h.extractOutputValues().size());
        }
    }

    @Test
    void aSuspicionBeforeTheRunThatNamesTheProbeAsksOnceThatRunComes() throws Exception {
        try (var h = harness(ConfirmParams.defaults())) {
            // the sender's tuning changed at T0 + 2 min; the run of T0 is read later, from its
            // own topic
            Suspicion tuning =
                    Suspicion.of(
                            A,
                            B,
                            null,
                            T0 + 2 * MIN,
                            SuspicionReason.HOST_TUNING_CHANGE,
                            "tcp_wmem max 65536 to 33554432",
                            java.util.Map.of("tuning_before", "tcp_wmem max 65536"));
            h.processElement(PlannerInput.of(tuning), T0 + 2 * MIN);
            h.processElement(suspect(null, T0 + 3 * MIN, SuspicionReason.RTT_SHIFT), T0 + 3 * MIN);
            assertEquals(List.of(), h.extractOutputValues(), "no probe known yet");
            h.processElement(run("tput", T0, null), T0);
            List<ProbeRequest> out = h.extractOutputValues();
            assertEquals(1, out.size(), "the first suspicion held, asked for once");
            ProbeRequest r = out.get(0);
            valid(r);
            assertEquals("tput", r.probeId());
            assertEquals("host_tuning_change", r.reason());
            assertEquals(T0 + 2 * MIN + 15 * MIN, r.expiresTs());
            assertEquals("tcp_wmem max 65536", r.evidence().get("tuning_before"));
            h.processElement(run("tput", T0 + MIN, null), T0 + MIN);
            assertEquals(1, h.extractOutputValues().size(), "released once");
        }
    }

    @Test
    void aHeldSuspicionIsAnsweredByALaterRunAndDropsOnceExpired() throws Exception {
        try (var h = harness(ConfirmParams.defaults())) {
            h.processElement(suspect(null, T0, SuspicionReason.ROUTE_CHANGE), T0);
            h.processElement(run("tput", T0 + MIN, null), T0 + MIN);
            assertEquals(List.of(), h.extractOutputValues(), "the run measured after it");
        }
        try (var h = harness(ConfirmParams.defaults())) {
            h.processElement(suspect(null, T0 + MIN, SuspicionReason.LOSS), T0 + MIN);
            h.processWatermark(T0 + 16 * MIN);
            h.processElement(run("tput", T0, null), T0);
            assertEquals(List.of(), h.extractOutputValues(), "its request would have expired");
            // a later suspicion asks at once: the probe is known now
            h.processElement(suspect(null, T0 + 17 * MIN, SuspicionReason.LOSS), T0 + 17 * MIN);
            assertEquals("tput", h.extractOutputValues().get(0).probeId());
        }
    }

    @Test
    void aScreeningBurstIsNeverTheProbeACheapSignalAsksFor() throws Exception {
        try (var h = harness(ConfirmParams.defaults())) {
            h.processElement(run("tcp-4h", T0, null), T0);
            h.processElement(
                    PlannerInput.of(
                            new RunSeen(
                                    A, B, "tcp-burst", T0 + MIN, null, true, true, false, null)),
                    T0 + MIN);
            h.processElement(
                    suspect(null, T0 + 2 * MIN, SuspicionReason.ROUTE_CHANGE), T0 + 2 * MIN);
            assertEquals(
                    "tcp-4h",
                    h.extractOutputValues().get(0).probeId(),
                    "the full test confirms, not the burst");
        }
    }

    @Test
    void switchedOffItAsksNothing() throws Exception {
        var d = ConfirmParams.defaults();
        var off =
                new ConfirmParams(
                        false,
                        d.linkMax(),
                        d.linkWindow(),
                        d.hostPerHour(),
                        d.meshPerHour(),
                        d.requestTtl(),
                        d.rttRatio(),
                        d.rttMinMs(),
                        d.rttConsecutive(),
                        d.rttHistory());
        try (var h = harness(off)) {
            h.processElement(suspect("tcp-default", T0, SuspicionReason.THROUGHPUT_LOW), T0);
            assertEquals(List.of(), h.extractOutputValues());
        }
    }

    @Test
    void duringACollapseOnlyARunThatCouldEndItAsks() throws Exception {
        try (var h = harness(ConfirmParams.defaults())) {
            h.processElement(run("tcp", T0, null), T0);
            var alert =
                    org.longhaul.flink.records.Event.builder(
                                    org.longhaul.flink.records.EventKind.THROUGHPUT_COLLAPSE,
                                    A,
                                    B,
                                    "collapse-detector",
                                    T0 + MIN)
                            .message("collapse")
                            .build();
            h.processElement(PlannerInput.ofEvent(alert), T0 + MIN);
            h.processElement(
                    suspect(null, T0 + 2 * MIN, SuspicionReason.ROUTE_CHANGE), T0 + 2 * MIN);
            h.processElement(suspect(null, T0 + 3 * MIN, SuspicionReason.LOSS), T0 + 3 * MIN);
            assertEquals(
                    List.of(), h.extractOutputValues(), "the alert is out: nothing to confirm");
            h.processElement(
                    suspect("tcp", T0 + 4 * MIN, SuspicionReason.THROUGHPUT_RECOVERING),
                    T0 + 4 * MIN);
            assertEquals("throughput_recovering", h.extractOutputValues().get(0).reason());
            var recovery =
                    org.longhaul.flink.records.Event.builder(
                                    org.longhaul.flink.records.EventKind.THROUGHPUT_RECOVERY,
                                    A,
                                    B,
                                    "collapse-detector",
                                    T0 + 5 * MIN)
                            .message("recovered")
                            .build();
            h.processElement(PlannerInput.ofEvent(recovery), T0 + 5 * MIN);
            h.processElement(
                    run("tcp", T0 + 5 * MIN, h.extractOutputValues().get(0).requestId()),
                    T0 + 5 * MIN);
            h.processElement(suspect(null, T0 + 6 * MIN, SuspicionReason.LOSS), T0 + 6 * MIN);
            assertEquals(
                    2,
                    h.extractOutputValues().size(),
                    "after the recovery a cheap signal asks again");
        }
    }
}
