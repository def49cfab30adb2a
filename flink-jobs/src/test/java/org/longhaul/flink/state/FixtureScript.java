package org.longhaul.flink.state;

import static org.longhaul.flink.testing.Samples.HOUR;
import static org.longhaul.flink.testing.Samples.MINUTE;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import java.util.ArrayList;
import java.util.List;
import org.longhaul.flink.testing.Samples;

/**
 * What the savepoint fixtures hold and what a restored job is fed. {@link #before()} builds real
 * state for four links of one source (T0 = 2012-01-05 07:00 UTC, all within that UTC day):
 *
 * <ul>
 *   <li>{@link #ALERT}: 12 hourly TCP runs around 100 Mbit/s, then 2 at 30 Mbit/s: an open
 *       throughput_collapse episode;
 *   <li>{@link #BASELINE}: 14 hourly runs around 1 Gbit/s (a learnt baseline, no alert) and a ping
 *       every 5 min that stops at the end of the fixture;
 *   <li>{@link #ROUTE}: 16 traceroutes every 10 min on one path (the reference path);
 *   <li>{@link #LOSS}: a ping every 5 min, the last three with 30 % loss: an open high_loss
 *       episode.
 * </ul>
 *
 * Every run comes with its interval records and a host snapshot, as the agent sends them. {@link
 * #afterRestore()} is what the restore test feeds the restored job: each input only makes sense on
 * top of that state. A fixture keeps the input it was built from (input.jsonl), so the test takes
 * its expectations from the fixture, not from this class; afterRestore() must keep fitting every
 * fixture still kept.
 */
public final class FixtureScript {
    public static final String ALERT = "alert.fixture.example";
    public static final String BASELINE = "baseline.fixture.example";
    public static final String ROUTE = "route.fixture.example";
    public static final String LOSS = "loss.fixture.example";

    /** ±10 % around 1, a fixed pattern so a fixture is reproducible. */
    private static final double[] NOISE = {
        1.00, 0.93, 1.08, 0.97, 1.05, 0.91, 1.02, 1.10, 0.95, 0.99, 1.04, 0.96, 1.01, 0.98
    };

    private static final List<List<String>> PATH_BEFORE =
            path("10.1.0.1", "192.0.2.10", "198.51.100.7", "203.0.113.20");
    private static final List<List<String>> PATH_AFTER =
            path("10.1.0.1", "192.0.2.99", "198.51.100.77", "203.0.113.20");

    private FixtureScript() {}

    /** The input the fixture's state is built from (JSON lines, each stream in time order). */
    public static List<String> before() {
        List<String> lines = new ArrayList<>();
        for (int h = 0; h < 14; h++) {
            long start = T0 + h * HOUR;
            run(lines, ALERT, "alert-" + h, start, h < 12 ? 100e6 * NOISE[h] : 30e6);
            run(lines, BASELINE, "baseline-" + h, start + 20 * MINUTE, 1e9 * NOISE[h]);
        }
        for (long t = T0 + 12 * HOUR; t <= T0 + 13 * HOUR + 30 * MINUTE; t += 5 * MINUTE) {
            lines.add(Samples.ping(SRC, BASELINE, t, 10, 10, 140.0, 0.4).toString());
            boolean lossy = t >= T0 + 13 * HOUR + 20 * MINUTE;
            lines.add(Samples.ping(SRC, LOSS, t, 10, lossy ? 7 : 10, 95.0, 0.3).toString());
        }
        for (long t = T0 + 11 * HOUR; t <= T0 + 13 * HOUR + 30 * MINUTE; t += 10 * MINUTE) {
            lines.add(Samples.path(SRC, ROUTE, t, true, 180.0, PATH_BEFORE).toString());
        }
        return lines;
    }

    /**
     * What the restored job is fed: recovery of ALERT, a collapse of BASELINE, a new path on ROUTE,
     * loss gone on LOSS.
     */
    public static List<String> afterRestore() {
        List<String> lines = new ArrayList<>();
        for (int h = 14; h < 16; h++) {
            long start = T0 + h * HOUR;
            run(lines, ALERT, "alert-" + h, start, 100e6);
            run(lines, BASELINE, "baseline-" + h, start + 20 * MINUTE, 0.3e9);
        }
        for (long t = T0 + 13 * HOUR + 40 * MINUTE; t <= T0 + 14 * HOUR; t += 10 * MINUTE) {
            lines.add(Samples.path(SRC, ROUTE, t, true, 150.0, PATH_AFTER).toString());
        }
        for (long t = T0 + 13 * HOUR + 35 * MINUTE;
                t <= T0 + 13 * HOUR + 40 * MINUTE;
                t += 5 * MINUTE) {
            lines.add(Samples.ping(SRC, LOSS, t, 10, 10, 95.0, 0.3).toString());
        }
        return lines;
    }

    /**
     * The route ROUTE takes after the restore, as route_change reports it (most frequent address
     * per hop).
     */
    public static List<String> pathAfter() {
        return PATH_AFTER.stream().map(h -> h.get(0)).toList();
    }

    /** A TCP run as the agent sends it: a summary, 10 one-second intervals, a host snapshot. */
    private static void run(List<String> lines, String dst, String runId, long start, double bps) {
        lines.add(Samples.host(SRC, dst, start, 4_194_304, 6_291_456).toString());
        lines.addAll(
                Samples.tcpRun(SRC, dst, runId, start, bps, s -> bps * (s % 2 == 0 ? 0.98 : 1.02)));
    }

    private static List<List<String>> path(String... hops) {
        return List.of(hops).stream().map(h -> List.of(h, h, h)).toList();
    }
}
