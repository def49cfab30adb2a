package org.longhaul.flink.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.HOUR;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.Envelope;
import org.longhaul.flink.records.PathHop;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.testing.Samples;
import org.longhaul.flink.testing.Validation;

/**
 * A traceroute run that names a TTL beyond its own max_ttl, or one TTL twice, is a dead letter:
 * each TTL is a series in InfluxDB, and a sample must not make series its run never probed (issue
 * 46: one identity could fill the database for everyone). Nothing of it is forwarded to the paths
 * topic.
 */
class PathConsistencyTest {
    private static final long BROKER = T0 + 10 * HOUR;

    private static ObjectNode run(int maxTtl, int... ttls) {
        ObjectNode n = Samples.path(SRC, DST, BROKER, true, 150.0, List.of());
        n.put("max_ttl", maxTtl);
        var hops = n.putArray("hops");
        for (int ttl : ttls) {
            hops.addObject()
                    .put("ttl", ttl)
                    .putArray("probes")
                    .addObject()
                    .put("addr", "10.0.0." + ttl)
                    .put("rtt_ms", 1.0);
        }
        return n;
    }

    private static Validation<PathSample> validate(ObjectNode... runs) throws Exception {
        var fn =
                new ValidateFunction<>(
                        Contract.PATH,
                        PathSample.class,
                        null,
                        new ClockSkew(ClockSkew.contractTolerance()),
                        LinkCap.defaults(),
                        true,
                        BridgeLists.none(),
                        null);
        RawMessage[] messages = new RawMessage[runs.length];
        for (int i = 0; i < runs.length; i++) {
            messages[i] =
                    RawMessage.of("longhaul.raw.path", 0, (long) i, runs[i].toString())
                            .withClocks(BROKER, BROKER);
        }
        return Validation.run(fn, messages);
    }

    private static List<String> reasons(Validation<PathSample> out) {
        return out.deadLetters().stream().map(DeadLetter::reason).toList();
    }

    @Test
    void aRunWithinItsMaxTtlGoesOn() throws Exception {
        Validation<PathSample> out = validate(run(30, 1, 2, 3, 30));
        assertEquals(1, out.samples().size());
        assertEquals(List.of(), reasons(out));
        assertEquals(1, out.valid().size());
    }

    @Test
    void aHopBeyondTheRunsMaxTtlIsADeadLetterAndNotForwarded() throws Exception {
        Validation<PathSample> out = validate(run(30, 1, 2, 200));
        assertEquals(List.of(), out.samples());
        assertEquals(
                List.of("inconsistent: a hop of ttl 200 beyond the run's max_ttl 30"),
                reasons(out));
        assertEquals(List.of(), out.valid());
    }

    @Test
    void aTtlGivenTwiceIsADeadLetter() throws Exception {
        Validation<PathSample> out = validate(run(30, 1, 2, 2));
        assertEquals(List.of("inconsistent: ttl 2 given twice"), reasons(out));
        assertEquals(List.of(), out.valid());
    }

    @Test
    void aRunWithoutMaxTtlIsBoundByTheSchemaAlone() {
        assertNull(path(List.of(new PathHop(200, List.of()))).inconsistency());
    }

    @Test
    void eachTtlOfTheSchemasRangeIsItsOwnAndNoneBelowOne() {
        var all = new ArrayList<PathHop>();
        for (int ttl = 255; ttl >= 1; ttl--) { // every TTL once, in any order
            all.add(new PathHop(ttl, List.of()));
        }
        assertNull(path(all).inconsistency());
        all.add(new PathHop(255, List.of()));
        assertEquals("inconsistent: ttl 255 given twice", path(all).inconsistency());
        assertEquals(
                "inconsistent: a hop of ttl 0, below 1",
                path(List.of(new PathHop(0, List.of()))).inconsistency());
    }

    private static PathSample path(List<PathHop> hops) {
        return new PathSample(
                new Envelope("path_sample", 2, SRC, DST, "path", BROKER),
                "r",
                "traceroute",
                null,
                null,
                null,
                null,
                true,
                hops,
                null);
    }
}
