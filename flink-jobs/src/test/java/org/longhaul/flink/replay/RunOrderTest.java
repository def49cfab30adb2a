package org.longhaul.flink.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.RawMessage;

class RunOrderTest {
    private static final long T = 1_325_750_400_000L; // 2012-01-05T08:00:00Z

    private static String line(String dst, String run, long ts, String record) {
        return "{\"schema\":\"throughput_sample\",\"version\":1,\"src\":\"ihep\",\"dst\":\""
                + dst
                + "\",\"probe_id\":\"tcp\",\"ts\":"
                + ts
                + ",\"run_id\":\""
                + run
                + "\",\"record\":\""
                + record
                + "\"}";
    }

    private static List<Long> offsets(List<String> lines) {
        List<RawMessage> in = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            in.add(RawMessage.of("longhaul.raw.throughput", null, (long) i + 1, lines.get(i)));
        }
        return RunOrder.of(in).stream().map(RawMessage::offset).toList();
    }

    @Test
    void anEarlierRunAfterALaterOneComesFirstAndEachRunKeepsItsLinesInFileOrder() {
        List<String> lines =
                List.of(
                        line("lyon", "r1", T, "summary"), // the run's start: before its intervals
                        line("lyon", "r1", T + 5_000, "interval"),
                        line("lyon", "r1", T + 10_000, "interval"),
                        line("cern", "r0", T - 3_600_000, "summary")); // an hour before
        assertEquals(List.of(4L, 1L, 2L, 3L), offsets(lines));
    }

    @Test
    void runsOfTheSameIdOnOtherLinksAreRunsOfTheirOwn() {
        List<String> lines =
                List.of(
                        line("lyon", "r", T + 60_000, "summary"),
                        line("cern", "r", T, "summary"),
                        line("lyon", "r", T + 65_000, "interval"));
        assertEquals(List.of(2L, 1L, 3L), offsets(lines));
    }

    @Test
    void aLineWithoutATsComesFirstAndEqualStartsKeepFileOrder() {
        List<String> lines =
                List.of(
                        "{\"schema\":\"rtt_sample\",\"src\":\"ihep\",\"ts\":13257",
                        "{\"schema\":\"rtt_sample\",\"src\":\"a\",\"dst\":\"b\",\"ts\":" + T + "}",
                        "{\"schema\":\"rtt_sample\",\"src\":\"c\",\"dst\":\"d\",\"ts\":" + T + "}",
                        "not json");
        assertEquals(List.of(1L, 4L, 2L, 3L), offsets(lines));
    }
}
