package org.longhaul.flink.functions.confirm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.Samples.T0;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.EventKind;
import org.longhaul.flink.records.HostSnapshot;
import org.longhaul.flink.records.Suspicion;
import org.longhaul.flink.testing.Samples;

/**
 * The suspicions of the cheap probes: ping RTT shifts, sender tuning changes, route and loss
 * events.
 */
class CheapSignalsTest {
    private static final long MIN = 60_000;

    private static List<Suspicion> pings(double... rtts) {
        RttState s = new RttState();
        List<Suspicion> out = new ArrayList<>();
        for (int i = 0; i < rtts.length; i++) {
            Suspicion x =
                    DelayShiftDetector.judge(
                            s,
                            DelayReading.of(
                                    Samples.rtt(
                                            Samples.ping(
                                                    "s1",
                                                    "dst-b",
                                                    T0 + i * MIN,
                                                    5,
                                                    5,
                                                    rtts[i],
                                                    0.5))),
                            ConfirmParams.defaults(),
                            DelayKind.RTT);
            if (x != null) {
                out.add(x);
            }
        }
        return out;
    }

    @Test
    void anRttShiftIsOneSuspicionAfterThreeHighPingsAndTheLevelFollowsTheLink() {
        double[] rtts = new double[60];
        for (int i = 0; i < 20; i++) {
            rtts[i] = 70 + (i % 3); // the link's level, 70-72 ms
        }
        for (int i = 20; i < 60; i++) {
            rtts[i] = 140; // a new path: twice the RTT, to stay
        }
        List<Suspicion> out = pings(rtts);
        assertEquals(1, out.size(), "once, not for every high ping");
        assertEquals("rtt_shift", out.get(0).reason());
        assertEquals(T0 + 22 * MIN, out.get(0).ts(), "at the third high ping");
        assertTrue(
                out.get(0)
                        .message()
                        .startsWith(
                                "ping RTT 140 ms, 3 pings in a row above the link's level of 71 ms"),
                out.get(0).message());
    }

    @Test
    void aOneWayDelayShiftIsASuspicionOfThatDirection() {
        RttState s = new RttState();
        List<Suspicion> out = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            double owd = i < 20 ? 70 + (i % 3) * 0.1 : 95; // a longer path one way only
            var run =
                    Samples.latencySample(
                            Samples.latency("ps-lyon", "ps-beijing", T0 + i * MIN, 600, 0, owd));
            Suspicion x =
                    DelayShiftDetector.judge(
                            s,
                            DelayReading.of(run, ConfirmParams.defaults().rttMinMs()),
                            ConfirmParams.defaults(),
                            DelayKind.OWD);
            if (x != null) {
                out.add(x);
            }
        }
        assertEquals(1, out.size());
        Suspicion x = out.get(0);
        assertEquals("owd_shift", x.reason());
        assertEquals("ps-lyon", x.src(), "the direction that changed");
        assertTrue(
                x.message()
                        .startsWith(
                                "one-way delay 95 ms, 3 runs in a row above the direction's level of"),
                x.message());
        assertEquals(95.0, x.evidence().get("owd_ms"));
    }

    @Test
    void aOneWayDelayTheClocksCannotVouchForIsNotJudged() {
        var run = Samples.latency("a", "b", T0, 600, 0, 70);
        run.put("clock_error_ms", 30.0);
        assertNull(
                DelayReading.of(Samples.latencySample(run), ConfirmParams.defaults().rttMinMs()));
        var negative = Samples.latency("a", "b", T0, 600, 0, -12);
        assertNull(DelayReading.of(Samples.latencySample(negative), 1));
    }

    @Test
    void noisePingsAndTooFewPingsRaiseNothing() {
        assertEquals(List.of(), pings(70, 90, 95, 99), "no level yet");
        double[] noisy = new double[200];
        java.util.Random rnd = new java.util.Random(5);
        for (int i = 0; i < noisy.length; i++) {
            noisy[i] =
                    70
                            + rnd.nextGaussian() * 2
                            + (i % 17 == 0 ? 30 : 0); // a lone spike now and then
        }
        assertEquals(List.of(), pings(noisy));
    }

    @Test
    void aTuningChangeOfTheSenderIsASuspicionTheFirstSnapshotIsNot() throws Exception {
        try (var h =
                ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                        new TuningChangeDetector(Duration.ofDays(7)),
                        HostSnapshot::link,
                        Types.STRING)) {
            h.processElement(
                    Samples.hostSnapshot(Samples.host("s2", "dst-d", T0, 65536, 65536)), T0);
            h.processElement(
                    Samples.hostSnapshot(Samples.host("s2", "dst-d", T0 + MIN, 65536, 65536)),
                    T0 + MIN);
            assertEquals(List.of(), h.extractOutputValues());
            h.processElement(
                    Samples.hostSnapshot(
                            Samples.host("s2", "dst-d", T0 + 2 * MIN, 33554432, 33554432)),
                    T0 + 2 * MIN);
            Suspicion x = h.extractOutputValues().get(0);
            assertEquals("host_tuning_change", x.reason());
            assertTrue(
                    x.message().contains("tcp_wmem max 65536")
                            && x.message().contains("tcp_wmem max 33554432"),
                    x.message());
        }
    }

    @Test
    void aRouteChangeAndHighLossAreSuspicionsOtherEventsAreNot() {
        Event route =
                Event.builder(EventKind.ROUTE_CHANGE, "s1", "dst-b", "route-detector", T0)
                        .message("route changed")
                        .evidence("rtt_after_ms", 181.0)
                        .evidence("hop", "x")
                        .build();
        Suspicion x = Suspicions.ofEvent(route);
        assertNotNull(x);
        assertEquals("route_change", x.reason());
        assertEquals(181.0, x.evidence().get("rtt_after_ms"));
        assertNull(x.evidence().get("hop"), "only numbers and booleans are carried");
        assertEquals(
                "loss",
                Suspicions.ofEvent(
                                Event.builder(EventKind.HIGH_LOSS, "s1", "dst-b", "q", T0)
                                        .message("loss")
                                        .build())
                        .reason());
        assertNull(
                Suspicions.ofEvent(
                        Event.builder(EventKind.STALL, "s1", "dst-b", "s", T0)
                                .message("stall")
                                .build()));
    }
}
