package org.longhaul.flink.functions.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.MINUTE;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.testing.Harness;
import org.longhaul.flink.testing.Samples;

class QualityDetectorTest {
    private static final Duration TTL = Duration.ofDays(7);
    private long t = T0;

    private static Harness<QualitySample> harness(QualityParams p) throws Exception {
        return Harness.of(new QualityDetector(p, TTL), QualitySample::key);
    }

    private List<Event> udp(Harness<QualitySample> h, double loss, double jitter) throws Exception {
        t += 10 * MINUTE;
        h.add(
                QualitySample.of(
                        Samples.throughput(Samples.udpSummary(SRC, DST, "u" + t, t, loss, jitter))),
                t);
        return h.newEvents();
    }

    private List<Event> ping(Harness<QualitySample> h, int received, double mdev) throws Exception {
        t += MINUTE;
        h.add(QualitySample.of(Samples.rtt(Samples.ping(SRC, DST, t, 10, received, 283, mdev))), t);
        return h.newEvents();
    }

    @Test
    void shouldRaiseHighLossAfterTwoRunsAndRecoverBelowHalfTheThreshold() throws Exception {
        try (var h = harness(QualityParams.defaults())) {
            assertEquals(List.of(), udp(h, 3.9, 0.15));
            List<Event> high = udp(h, 5.0, 0.15);
            assertEquals(1, high.size());
            assertEquals("high_loss", high.get(0).kind());
            assertEquals("udp", high.get(0).protocol());
            assertEquals(5.0, high.get(0).evidence().get("loss_percent"));
            assertEquals(List.of(), udp(h, 8.0, 0.15));
            assertEquals(
                    List.of(),
                    udp(h, 1.5, 0.15),
                    "between threshold × 0.5 and the threshold: no recovery yet");
            assertEquals(List.of(), udp(h, 0.2, 0.15));
            List<Event> back = udp(h, 0.1, 0.15);
            assertEquals("loss_recovery", back.get(0).kind());
            assertEquals(high.get(0).episodeId(), back.get(0).episodeId());
            assertEquals(8.0, back.get(0).evidence().get("peak_loss_percent"));
            assertEquals(0, h.timers(), "nothing open: no state, no timer");
            assertEquals(0, h.stateEntries());
        }
    }

    @Test
    void shouldUsePerLinkThresholds() throws Exception {
        var p = new QualityParams(2.0, 20.0, Map.of(SRC + "|" + DST, 5.0), Map.of(), 2, 0.5);
        try (var h = harness(p)) {
            udp(h, 4.0, 0.1);
            udp(h, 4.5, 0.1);
            assertEquals(List.of(), h.events());
        }
    }

    @Test
    void shouldRaiseHighJitterAndLossFromPings() throws Exception {
        try (var h = harness(QualityParams.defaults())) {
            assertEquals(List.of(), ping(h, 10, 30));
            List<Event> jitter = ping(h, 10, 35);
            assertEquals("high_jitter", jitter.get(0).kind());
            assertEquals("icmp", jitter.get(0).protocol());
            ping(h, 0, 0);
            List<Event> loss = ping(h, 0, 0);
            assertEquals("high_loss", loss.get(0).kind());
            assertEquals("critical", loss.get(0).severity());
            assertEquals(1, h.timers());
            h.watermark(t + TTL.toMillis());
            assertEquals(0, h.stateEntries());
        }
    }

    @Test
    void shouldIgnoreASingleSpike() throws Exception {
        try (var h = harness(QualityParams.defaults())) {
            udp(h, 0, 0.1);
            udp(h, 30, 50);
            udp(h, 0, 0.1);
            udp(h, 0, 0.1);
            assertEquals(List.of(), h.events());
        }
    }
}
