package org.longhaul.flink.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.records.RawMessage;

/**
 * A replayed stream in the order of the runs it holds: runs by their earliest {@code ts}, the lines
 * of one run (src, dst, probe_id and run_id alike) together and in file order, as an agent
 * publishes them (a throughput run's summary first, stamped at the run's start, then its
 * intervals). A line without a run id is a run of its own; one without a ts (not JSON, say) comes
 * first, to be dead-lettered by validation as it would be anywhere.
 *
 * <p>Why: the embedded cluster emits its watermark every 200 ms of wall time while the sources read
 * weeks of samples in milliseconds, so a line more than the out-of-orderness behind an earlier one
 * was late or not by chance: the seed-000 file's refused run of 07:00, which follows an 08:00 run,
 * was dead-lettered as late in one of two unit-test runs on 2026-12-03. In run order nothing is
 * behind, and a replay of several hosts' files concatenated gives the same result every time.
 */
final class RunOrder {
    private RunOrder() {}

    static List<RawMessage> of(List<RawMessage> stream) {
        Map<String, Long> start = new HashMap<>();
        List<String> runs = new ArrayList<>(stream.size());
        for (int i = 0; i < stream.size(); i++) {
            String line = stream.get(i).text();
            String run = runOf(line, i);
            runs.add(run);
            Long ts = Json.peekTs(line);
            start.merge(run, ts == null ? Long.MIN_VALUE : ts, Math::min);
        }
        // sorted() of an ordered stream is stable: equal starts keep file order, and so do the
        // lines
        // of one run
        return IntStream.range(0, stream.size())
                .boxed()
                .sorted(Comparator.comparingLong(i -> start.get(runs.get(i))))
                .map(stream::get)
                .toList();
    }

    /** The run a line belongs to; a line without a run id (or not JSON) is its own. */
    private static String runOf(String line, int index) {
        String runId = Json.peekText(line, "run_id");
        if (runId == null) {
            return "line\0" + index;
        }
        return String.join(
                "\0",
                String.valueOf(Json.peekText(line, "src")),
                String.valueOf(Json.peekText(line, "dst")),
                String.valueOf(Json.peekText(line, "probe_id")),
                runId);
    }
}
