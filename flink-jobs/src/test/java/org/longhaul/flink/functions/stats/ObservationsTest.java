package org.longhaul.flink.functions.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.LinkStats;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.testing.Samples;

/** What each kind of sample contributes, through the accumulator to the link_stats fields. */
class ObservationsTest {

    private static LinkStats fold(Observation... observations) {
        LinkAccumulator acc = new LinkAccumulator();
        Arrays.stream(observations).forEach(acc::add);
        Observation first = observations[0];
        return ToLinkStats.of(
                new WindowedStats(
                        first.key(), "1m", T0, T0 + 60_000, acc, WindowedStats.Part.WHOLE));
    }

    @Test
    void tcpIntervalsGiveThroughputRetransmitsPerMegabyteAndRtt() {
        var a =
                Samples.interval(SRC, DST, "r", T0, 0, 1, 8e6)
                        .put("retransmits", 3)
                        .put("bytes", 1_000_000)
                        .put("rtt_ms", 283.4);
        var b =
                Samples.interval(SRC, DST, "r", T0, 1, 2, 4e6)
                        .put("retransmits", 1)
                        .put("bytes", 1_000_000)
                        .put("rtt_ms", 290.0);
        LinkStats s = fold(observe(Samples.throughput(a)), observe(Samples.throughput(b)));
        assertEquals("tcp", s.protocol());
        assertEquals(2, s.samples());
        assertEquals(6e6, s.throughputMeanBps());
        assertEquals(8e6, s.throughputMaxBps());
        assertEquals(4, s.retransmits());
        assertEquals(2.0, s.retransmitsPerMb());
        assertEquals(283.4, s.rttMinMs());
        assertEquals(290.0, s.rttMaxMs());
        assertNull(s.lossPercent());
        assertEquals(T0 + 60_000, s.ts());
    }

    @Test
    void omittedIntervalsAndNotStartedRunsContributeNothing() {
        assertNull(
                observe(
                        Samples.throughput(
                                Samples.interval(SRC, DST, "r", T0, 0, 1, 1e6)
                                        .put("omitted", true))));
        assertNull(observe(Samples.throughput(Samples.failed(SRC, DST, "r", T0, "not_started"))));
        assertNull(
                observe(
                        Samples.throughput(
                                Samples.interval(SRC, DST, "r", T0, 0, 1, 1e6)
                                        .put("screens", "tcp-default"))),
                "a screening burst is not the link's throughput");
        assertNull(
                observe(
                        Samples.throughput(
                                Samples.summary(SRC, DST, "r", T0, 1e6)
                                        .put("screens", "tcp-default"))));
    }

    @Test
    void failedRunsAreErrorsAndSuccessfulOnesRuns() {
        LinkStats s =
                fold(
                        observe(
                                Samples.throughput(
                                        Samples.failed(SRC, DST, "a", T0, "connection_refused"))),
                        observe(Samples.throughput(Samples.summary(SRC, DST, "b", T0, 1e6))));
        assertEquals(2, s.runs());
        assertEquals(1, s.errors());
        assertEquals(0, s.samples());
        assertNull(s.throughputMeanBps(), "throughput comes from intervals only");
    }

    @Test
    void udpSummariesGiveLossOverPacketsAndJitter() {
        LinkStats s =
                fold(
                        observe(
                                Samples.throughput(
                                        Samples.udpSummary(SRC, DST, "u1", T0, 4.0, 0.15))),
                        observe(
                                Samples.throughput(
                                        Samples.udpSummary(SRC, DST, "u2", T0, 0.0, 0.25))));
        assertEquals("udp", s.protocol());
        assertEquals(2.0, s.lossPercent(), 1e-9);
        assertEquals(4.0, s.lossPercentMax());
        assertEquals(0.2, s.jitterMs(), 1e-9);
        assertEquals(0.25, s.jitterMsMax());
    }

    @Test
    void pingsAreIcmpWithLossRttAndMdevAsJitter() {
        LinkStats s =
                fold(
                        observe(Samples.rtt(Samples.ping(SRC, DST, T0, 10, 10, 283.3, 0.4))),
                        observe(Samples.rtt(Samples.ping(SRC, DST, T0, 10, 0, 0, 0))));
        assertEquals("icmp", s.protocol());
        assertEquals(2, s.samples());
        assertEquals(50.0, s.lossPercent());
        assertEquals(100.0, s.lossPercentMax());
        assertEquals(283.3, s.rttMeanMs(), 1e-9);
        assertEquals(0.4, s.jitterMs(), 1e-9);
    }

    @Test
    void traceroutesGiveHopCountAndTheDestinationRtt() {
        List<List<String>> hops =
                List.of(
                        List.of("10.0.0.1"),
                        Arrays.asList(null, null, null),
                        List.of("193.48.99.78"));
        LinkStats s =
                fold(
                        observe(Samples.pathSample(Samples.path(SRC, DST, T0, true, 283.0, hops))),
                        observe(
                                Samples.pathSample(
                                        Samples.path(
                                                SRC,
                                                DST,
                                                T0,
                                                true,
                                                285.0,
                                                List.of(
                                                        List.of("10.0.0.1"),
                                                        List.of("62.40.112.9"),
                                                        List.of("1.2.3.4"),
                                                        List.of("193.48.99.78"))))));
        assertEquals("path", s.protocol());
        assertEquals(3.5, s.hopCount());
        assertEquals(283.0, s.rttMinMs());
        assertEquals(285.0, s.rttMaxMs());
    }

    /** What a sample of the shared raw topics gives the statistics. */
    private static Observation observe(ThroughputSample t) {
        return Observations.of(t, null);
    }

    private static Observation observe(RttSample r) {
        return Observations.of(r, null);
    }

    private static Observation observe(PathSample p) {
        return Observations.of(p, null);
    }
}
