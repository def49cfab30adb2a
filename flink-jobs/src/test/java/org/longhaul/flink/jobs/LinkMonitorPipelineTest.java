package org.longhaul.flink.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.ContractAssert.assertAllValid;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.functions.stats.Stagger;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.testing.ReplayOutput;
import org.longhaul.flink.testing.Samples;

/** The whole graph on a MiniCluster: validation, dead letters and 1-minute statistics. */
class LinkMonitorPipelineTest {
    /**
     * The arithmetic of the windows is checked on aligned ones, where T0 starts a minute, an hour
     * and a day.
     */
    private static final PipelineConfig ALIGNED =
            PipelineConfig.defaults().withStatsStagger(Stagger.aligned());

    @Test
    void oneRunAndAPingGiveMinuteStatsAndABadLineGivesADeadLetter() throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add(Samples.summary(SRC, DST, "r1", T0 + 5_000, 3.0e6).toString());
        for (int s = 0; s < 10; s++) {
            lines.add(
                    Samples.interval(SRC, DST, "r1", T0 + 5_000, s, s + 1, 2.0e6 + s * 1e5)
                            .toString());
        }
        lines.add(Samples.ping(SRC, DST, T0 + 20_000, 10, 9, 283.3, 0.4).toString());
        lines.add("{\"schema\":\"throug");

        ReplayOutput out = ReplayOutput.of(lines, ALIGNED);

        assertEquals(1, out.deadLetters().size());
        assertEquals("replay:test", out.deadLetters().get(0).get("source_topic").asText());
        JsonNode tcp =
                only(
                        out.stats(
                                s ->
                                        s.get("protocol").asText().equals("tcp")
                                                && s.get("window").asText().equals("1m")));
        assertEquals(T0, tcp.get("window_start").asLong());
        assertEquals(T0 + 60_000, tcp.get("ts").asLong());
        assertEquals(10, tcp.get("samples").asLong());
        assertEquals(1, tcp.get("runs").asLong());
        assertEquals(0, tcp.get("errors").asLong());
        assertEquals(2.45e6, tcp.get("throughput_mean_bps").asDouble(), 1.0);
        assertEquals(2.9e6, tcp.get("throughput_max_bps").asDouble(), 1.0);
        assertEquals(2.4e6, tcp.get("throughput_median_bps").asDouble(), 2.4e6 * 0.02);
        JsonNode icmp =
                only(
                        out.stats(
                                s ->
                                        s.get("protocol").asText().equals("icmp")
                                                && s.get("window").asText().equals("1m")));
        assertEquals(10.0, icmp.get("loss_percent").asDouble(), 1e-9);
        assertEquals(283.3, icmp.get("rtt_mean_ms").asDouble(), 1e-9);
        assertEquals(
                1,
                out.stats(
                                s ->
                                        s.get("window").asText().equals("1h")
                                                && s.get("protocol").asText().equals("tcp"))
                        .size());
        assertEquals(
                1,
                out.stats(
                                s ->
                                        s.get("window").asText().equals("1d")
                                                && s.get("protocol").asText().equals("tcp"))
                        .size());
        // the collapse detector's baseline after the run goes out with the statistics
        JsonNode baseline = only(out.stats(s -> s.get("window").asText().equals("baseline")));
        assertEquals("tcp-default", baseline.get("series").asText());
        assertEquals(T0 + 5_000, baseline.get("ts").asLong());
        assertEquals(3.0e6, baseline.get("baseline_bps").asDouble());
        assertEquals(1, baseline.get("runs").asLong());
        assertFalse(baseline.get("baseline_ready").asBoolean(), "1 run of the 10 it needs");
        assertAllValid(Contract.LINK_STATS, out.stats());
        assertAllValid(Contract.DEAD_LETTER, out.deadLetters());
        assertTrue(out.events().isEmpty(), out.events().toString());
    }

    @Test
    void hourAndDayWindowsFoldTheMinuteWindowsOfTheirSpan() throws Exception {
        List<String> lines = new ArrayList<>();
        long[] runStarts = {T0, T0 + 2 * Samples.MINUTE, T0 + 61 * Samples.MINUTE};
        for (long start : runStarts) {
            for (int s = 0; s < 10; s++) {
                lines.add(
                        Samples.interval(SRC, DST, "r" + start, start, s, s + 1, 1e6 * (s + 1))
                                .toString());
            }
        }
        ReplayOutput out = ReplayOutput.of(lines, ALIGNED);

        List<JsonNode> minutes = out.stats(s -> s.get("window").asText().equals("1m"));
        List<JsonNode> hours = out.stats(s -> s.get("window").asText().equals("1h"));
        List<JsonNode> days = out.stats(s -> s.get("window").asText().equals("1d"));
        assertEquals(3, minutes.size(), minutes.toString());
        assertEquals(2, hours.size(), hours.toString());
        assertEquals(1, days.size());
        JsonNode firstHour =
                hours.stream()
                        .filter(h -> h.get("window_start").asLong() == T0)
                        .findFirst()
                        .orElseThrow();
        assertEquals(20, firstHour.get("samples").asLong());
        assertEquals(T0 + Samples.HOUR, firstHour.get("ts").asLong());
        assertEquals(10e6, firstHour.get("throughput_max_bps").asDouble());
        assertEquals(5.5e6, firstHour.get("throughput_mean_bps").asDouble(), 1e-6);
        JsonNode day = days.get(0);
        assertEquals(30, day.get("samples").asLong());
        assertEquals(
                day.get("window_start").asLong() + 24 * Samples.HOUR,
                day.get("window_end").asLong());
    }

    @Test
    void byDefaultEachLinksWindowsEndAtItsOwnSecondAndStillFoldIntoHoursAndDays() throws Exception {
        Stagger stagger = PipelineConfig.defaults().statsStagger();
        int links = 40;
        int perLink = 2 * 60 * 2; // one interval every 30 s for 2 hours
        List<String> lines = new ArrayList<>();
        for (int j = 0; j < perLink; j++) {
            for (int i = 0; i < links; i++) {
                lines.add(
                        Samples.interval(SRC, "dst-" + i, "r" + j, T0 + j * 30_000L, 0, 1, 1e6)
                                .toString());
            }
        }
        ReplayOutput out = ReplayOutput.of(lines);

        Set<Long> offsets = new HashSet<>();
        for (int i = 0; i < links; i++) {
            String dst = "dst-" + i;
            long off = stagger.offsetMs(Links.key(SRC, dst, "tcp"));
            offsets.add(off);
            for (String window : List.of("1m", "1h", "1d")) {
                List<JsonNode> ws =
                        out.stats(
                                s ->
                                        s.get("dst").asText().equals(dst)
                                                && s.get("window").asText().equals(window));
                long size =
                        window.equals("1m")
                                ? Samples.MINUTE
                                : window.equals("1h") ? Samples.HOUR : 24 * Samples.HOUR;
                long samples = 0;
                for (JsonNode w : ws) {
                    assertEquals(
                            off,
                            Math.floorMod(w.get("window_start").asLong(), size),
                            dst + " " + w);
                    assertEquals(
                            size, w.get("window_end").asLong() - w.get("window_start").asLong());
                    samples += w.get("samples").asLong();
                }
                assertEquals(
                        perLink,
                        samples,
                        dst + " " + window + ": every sample in exactly one window");
            }
        }
        assertTrue(offsets.size() >= links / 2, "offsets spread over the minute: " + offsets);
    }

    private static JsonNode only(List<JsonNode> nodes) {
        assertEquals(1, nodes.size(), nodes.toString());
        return nodes.get(0);
    }
}
