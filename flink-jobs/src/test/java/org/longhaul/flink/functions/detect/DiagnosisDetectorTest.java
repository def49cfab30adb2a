package org.longhaul.flink.functions.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.Samples.HOUR;
import static org.longhaul.flink.testing.Samples.T0;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.testing.Harness;
import org.longhaul.flink.testing.Samples;

/** Seed 002: SLAC → RL, 139 ms, a 64 KB maximum window, ~3.7 Mbit/s; then the window raised. */
class DiagnosisDetectorTest {
    private static final Duration TTL = Duration.ofDays(7);
    private static final String SLAC = "slac-iepm";
    private static final String RL = "rl-dev04";

    private static Harness<DiagnosisInput> harness() throws Exception {
        return Harness.of(
                new DiagnosisDetector(DiagnosisParams.defaults(), TTL), DiagnosisInput::link);
    }

    private static DiagnosisInput run(long ts, double bps, Long retransmits) {
        var n = Samples.summary(SLAC, RL, "r" + ts, ts, bps).put("rtt_ms", 140.0);
        if (retransmits != null) {
            n.put("retransmits", retransmits);
        }
        return DiagnosisInput.of(Samples.throughput(n));
    }

    /** A run summary of 3.6 Mbit/s over 140 ms without a retransmit, at T0. */
    private static ObjectNode cleanRun(String runId) {
        return Samples.summary(SLAC, RL, runId, T0, 3.6e6)
                .put("rtt_ms", 140.0)
                .put("retransmits", 0L);
    }

    /** The first event the detector gives once the run has come and the watermark passed it. */
    private static Event diagnosed(Harness<DiagnosisInput> h, ObjectNode run) throws Exception {
        h.add(DiagnosisInput.of(Samples.throughput(run)), T0);
        h.watermark(T0);
        return h.events().get(0);
    }

    private static DiagnosisInput host(long ts, long maxWindow) {
        return DiagnosisInput.of(
                Samples.hostSnapshot(Samples.host(SLAC, RL, ts, maxWindow, maxWindow)));
    }

    @Test
    void shouldDiagnoseA64KWindowOver140msAsWindowLimitedWhateverTheArrivalOrder()
            throws Exception {
        try (var h = harness()) {
            h.add(run(T0, 3.6e6, 0L), T0);
            h.add(host(T0, 65536), T0);
            assertEquals(List.of(), h.events(), "waits for the watermark");
            assertEquals(1, h.timers() - 1, "one pending timer besides the cleanup timer");
            h.watermark(T0);
            List<Event> events = h.events();
            assertEquals(1, events.size());
            Event e = events.get(0);
            assertEquals("diagnosis", e.kind());
            assertEquals("host_tuning_limited", e.cause());
            assertEquals(65536L, e.evidence().get("window_bytes"));
            assertEquals(3.745e6, (double) e.evidence().get("window_bound_bps"), 1e3);
            assertEquals("net.ipv4.tcp_wmem", e.evidence().get("window_source"));
            assertEquals(
                    null,
                    e.evidence().get("optimum_window_bytes"),
                    "no capacity known: no window is guessed");
            assertTrue(
                    e.message()
                            .startsWith(
                                    "host-tuning-limited: 64 KiB / 140 ms = 3.74 Mbit/s (observed 3.6 Mbit/s), "
                                            + "set by the max of net.ipv4.tcp_wmem on slac-iepm; every run so far is held at this bound: "
                                            + "give the link's capacity"),
                    e.message());
            assertEquals(1, h.timers(), "only the cleanup timer is left");
        }
    }

    /**
     * The window that would fill the link comes from its configured capacity, at the measured RTT.
     */
    @Test
    void shouldSizeTheWindowForTheConfiguredCapacityAndNameTheSysctl() throws Exception {
        var d = DiagnosisParams.defaults();
        var p =
                new DiagnosisParams(
                        d.windowTolerance(),
                        d.capacityRatio(),
                        d.minRuns(),
                        d.history(),
                        d.mssBytes(),
                        d.mathisC(),
                        d.lossTolerance(),
                        0,
                        java.util.Map.of(SLAC + "|" + RL, 100e6),
                        d.confirmRuns());
        try (var h = Harness.of(new DiagnosisDetector(p, TTL), DiagnosisInput::link)) {
            h.add(host(T0, 65536), T0);
            h.add(run(T0, 3.6e6, 0L), T0);
            h.watermark(T0);
            Event e = h.events().get(0);
            assertEquals(
                    1_750_000L, e.evidence().get("optimum_window_bytes"), "100 Mbit/s × 140 ms");
            assertEquals("configured", e.evidence().get("capacity_source"));
            assertTrue(
                    e.message()
                            .endsWith(
                                    "a window of 1.67 MiB would fill the link's 100 Mbit/s (configured): "
                                            + "raise the max of net.ipv4.tcp_wmem to at least that"),
                    e.message());
        }
    }

    /**
     * Without a configured capacity, the best run the link has shown is what a window should fill.
     */
    @Test
    void shouldSizeTheWindowForTheBestRunWhenAWindowLimitAppearsLater() throws Exception {
        try (var h = harness()) {
            h.add(host(T0, 268_435_456L), T0);
            for (int i = 0; i < 3; i++) {
                h.add(run(T0 + i * HOUR, 95e6, 0L), T0 + i * HOUR);
            }
            long shrunk = T0 + 5 * HOUR; // a host reinstalled with a 64 KB maximum
            h.add(host(shrunk, 65536), shrunk);
            h.add(run(shrunk, 3.6e6, 0L), shrunk);
            h.watermark(shrunk);
            Event e = h.events().get(h.events().size() - 1);
            assertEquals("host_tuning_limited", e.cause());
            assertEquals("best_run", e.evidence().get("capacity_source"));
            assertEquals(
                    1_662_500L, e.evidence().get("optimum_window_bytes"), "95 Mbit/s × 140 ms");
            assertTrue(
                    e.message()
                            .contains(
                                    "a window of 1.59 MiB would fill the best it has shown, 95 Mbit/s"),
                    e.message());
        }
    }

    /**
     * A window the probe asked for beyond what the host allows a socket is capped by
     * net.core.wmem_max.
     */
    @Test
    void shouldNameTheSocketMaximumWhenItCapsTheRequestedWindow() throws Exception {
        try (var h = harness()) {
            h.add(host(T0, 65536), T0);
            Event e = diagnosed(h, cleanRun("rw").put("window_bytes", 4_194_304L));
            assertEquals("host_tuning_limited", e.cause(), "the host's setting, not the probe's");
            assertEquals("net.core.wmem_max", e.evidence().get("window_source"));
            assertTrue(e.message().contains("set by net.core.wmem_max on slac-iepm"), e.message());
        }
    }

    @Test
    void shouldReportOnceWhenALinkBecomesWindowLimitedAndOnceWhenTuningFreesIt() throws Exception {
        try (var h = harness()) {
            h.add(host(T0, 65536), T0);
            for (int i = 0; i < 3; i++) {
                h.add(run(T0 + i * HOUR, 3.6e6 + i * 1e4, 0L), T0 + i * HOUR);
            }
            long tuned = T0 + 10 * HOUR;
            h.add(host(tuned, 268_435_456L), tuned);
            for (int i = 0; i < 6; i++) {
                h.add(run(tuned + i * HOUR, 95e6 + i * 1e5, 0L), tuned + i * HOUR);
            }
            h.watermark(tuned + 10 * HOUR);
            List<Event> events = h.events();
            assertEquals(
                    List.of("host_tuning_limited", "capacity"),
                    events.stream().map(Event::cause).toList());
            assertEquals(
                    tuned + 2 * HOUR,
                    events.get(1).ts(),
                    "the 2nd run at capacity confirms it (5 runs of history)");
        }
    }

    @Test
    void shouldNotReportANoisyHealthyLinkAlternatingBetweenCapacityAndUnknown() throws Exception {
        try (var h = harness()) {
            h.add(host(T0, 268_435_456L), T0);
            java.util.Random rnd = new java.util.Random(3);
            for (int i = 0; i < 200; i++) {
                h.add(
                        run(T0 + i * HOUR, 557e6 * (0.7 + 0.6 * rnd.nextDouble()), 0L),
                        T0 + i * HOUR);
            }
            h.watermark(T0 + 200 * HOUR);
            assertEquals(List.of(), h.events());
        }
    }

    @Test
    void shouldDiagnoseLossLimitedByTheMathisBound() throws Exception {
        try (var h = harness()) {
            h.add(host(T0, 268_435_456L), T0);
            // 10 s at 1.2 Mbit/s = 1.5 MB ≈ 1027 segments of 1460 B; 10 retransmitted: p ≈ 0.97 %,
            // Mathis bound = 1460 × 8 / 0.14 s × 1.22 / √p ≈ 1.03 Mbit/s: the run sits at the loss
            // limit
            h.add(run(T0 + 1, 1.2e6, 10L), T0 + 1);
            h.watermark(T0 + 1);
            Event e = h.events().get(0);
            assertEquals("loss_limited", e.cause());
            assertEquals(1.03e6, (double) e.evidence().get("mathis_bound_bps"), 0.01e6);
            assertEquals(0.00974, (double) e.evidence().get("loss_rate"), 0.0001);
        }
    }

    @Test
    void shouldHandleLateInputsAtOnceAndDropStateAfterTheTtl() throws Exception {
        try (var h = harness()) {
            h.watermark(T0 + HOUR);
            h.add(host(T0, 65536), T0);
            h.add(run(T0, 3.6e6, 0L), T0);
            assertEquals("host_tuning_limited", h.events().get(0).cause());
            h.watermark(T0 + TTL.toMillis());
            assertEquals(0, h.timers());
            assertEquals(0, h.stateEntries());
        }
    }

    /** Seed 002's other half: a tuned sender, but the receiver advertises 64 KiB. */
    @Test
    void shouldNameTheReceiverWhenItsAdvertisedWindowIsTheBound() throws Exception {
        try (var h = harness()) {
            h.add(host(T0, 268_435_456L), T0);
            Event e = diagnosed(h, cleanRun("rr").put("snd_wnd_bytes", 65536L));
            assertEquals("receiver_window_limited", e.cause());
            assertEquals("receiver", e.evidence().get("window_source"));
            assertEquals(65536L, e.evidence().get("snd_wnd_bytes"));
            assertTrue(
                    e.message()
                            .startsWith(
                                    "receiver-window-limited: rl-dev04 advertised 64 KiB / 140 ms = 3.74 Mbit/s "
                                            + "(observed 3.6 Mbit/s), set by the max of net.ipv4.tcp_rmem (and net.core.rmem_max) on rl-dev04"),
                    e.message());
        }
    }

    /**
     * The probe asked for 64 KiB and the receiver offers more: the probe's own window is the limit.
     */
    @Test
    void shouldNameTheProbesWindowWhenTheReceiverOffersMore() throws Exception {
        try (var h = harness()) {
            h.add(host(T0, 268_435_456L), T0);
            Event e =
                    diagnosed(
                            h,
                            cleanRun("rs")
                                    .put("window_bytes", 65536L)
                                    .put("snd_wnd_bytes", 6_291_456L));
            assertEquals("sender_window_limited", e.cause());
            assertTrue(
                    e.message()
                            .startsWith(
                                    "sender-window-limited: 64 KiB / 140 ms = 3.74 Mbit/s (observed 3.6 Mbit/s), "
                                            + "set by the probe's window (iperf3 -w);"),
                    e.message());
        }
    }

    /**
     * Both ends at 64 KiB: the sender's own setting is named first (raising it shows the receiver's
     * next).
     */
    @Test
    void shouldNameTheSenderOnATie() throws Exception {
        var sender = new TcpWindow(65536, TcpWindow.Origin.AUTOTUNE, false);
        var receiver = new TcpWindow(60000, TcpWindow.Origin.RECEIVER, false);
        assertEquals(sender, Diagnosis.binding(sender, receiver, DiagnosisParams.defaults()));
        var small = new TcpWindow(16384, TcpWindow.Origin.RECEIVER, false);
        assertEquals(small, Diagnosis.binding(sender, small, DiagnosisParams.defaults()));
        assertEquals(small, Diagnosis.binding(null, small, DiagnosisParams.defaults()));
    }

    /**
     * A job's state from before event.v2 holds v1's window_limited: the same limit named finer is
     * not news.
     */
    @Test
    void shouldTakeOverAV1WindowCauseFromStateWithoutReportingItAgain() {
        var history = new ProbeHistory();
        history.cause = "window_limited";
        assertEquals(false, history.observe("host_tuning_limited", 2));
        assertEquals("host_tuning_limited", history.cause);
        var other = new ProbeHistory();
        other.cause = "window_limited";
        assertEquals(
                false, other.observe("capacity", 2), "leaving the limit still needs confirmation");
        assertEquals(true, other.observe("capacity", 2));
    }
}
