package org.longhaul.flink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.longhaul.flink.testing.ContractAssert.assertValid;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.Json;

/**
 * The benchmark's samples are what agents send: valid per the contract, in time order, at the
 * production cadence.
 */
class WeekOfProbesTest {
    private final WeekOfProbes week = new WeekOfProbes(100, 7, 6);
    private static final Map<WeekOfProbes.Kind, String> SCHEMA =
            Map.of(
                    WeekOfProbes.Kind.THROUGHPUT,
                    Contract.THROUGHPUT,
                    WeekOfProbes.Kind.PATH,
                    Contract.PATH,
                    WeekOfProbes.Kind.RTT,
                    Contract.RTT,
                    WeekOfProbes.Kind.LATENCY,
                    Contract.LATENCY,
                    WeekOfProbes.Kind.HOST,
                    Contract.HOST);

    @Test
    void everyRecordIsValidAgainstTheContractInTheVersionItNames() throws Exception {
        for (WeekOfProbes.Kind kind : WeekOfProbes.Kind.values()) {
            for (long k = 0; k < 300; k++) {
                JsonNode n = Json.mapper().readTree(week.payload(kind, k));
                assertValid(Contract.schemaOf(SCHEMA.get(kind), n.get("version").asInt()), n);
                assertEquals(week.ts(kind, k), n.get("ts").asLong());
            }
        }
    }

    @Test
    void eachLinkRunsEveryFourHoursPingsEveryMinuteTracesEveryTenMinutes() throws Exception {
        assertEquals(
                4 * 3600_000L,
                week.ts(WeekOfProbes.Kind.HOST, 100) - week.ts(WeekOfProbes.Kind.HOST, 0));
        assertEquals(
                60_000L, week.ts(WeekOfProbes.Kind.RTT, 105) - week.ts(WeekOfProbes.Kind.RTT, 5));
        assertEquals(
                600_000L,
                week.ts(WeekOfProbes.Kind.PATH, 107) - week.ts(WeekOfProbes.Kind.PATH, 7));
        assertEquals(week.end() - 6 * 3600_000L, week.ts(WeekOfProbes.Kind.RTT, 0));
        JsonNode first = Json.mapper().readTree(week.payload(WeekOfProbes.Kind.RTT, 0));
        JsonNode sameLink = Json.mapper().readTree(week.payload(WeekOfProbes.Kind.RTT, 100));
        assertEquals(first.get("src"), sameLink.get("src"));
        assertEquals(first.get("dst"), sameLink.get("dst"));
    }

    @Test
    void streamsAreInTimeOrderWithinTheJobsOutOfOrderness() {
        for (WeekOfProbes.Kind kind : WeekOfProbes.Kind.values()) {
            long max = Long.MIN_VALUE;
            for (long k = 0; k < 5_000; k++) {
                long ts = week.ts(kind, k);
                assertTrue(
                        max == Long.MIN_VALUE || ts >= max - 10_000,
                        kind + " record " + k + " is " + (max - ts) + " ms behind");
                max = Math.max(max, ts);
            }
        }
    }
}
