package org.longhaul.flink.testing;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.ContractNames;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.HostSnapshot;
import org.longhaul.flink.records.LatencySample;
import org.longhaul.flink.records.LinkStats;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.records.RttSample;
import org.longhaul.flink.records.ThroughputSample;

/**
 * The record the job makes of each schema it compiles ({@link Contract#ALL_VERSIONS}), for the
 * tests that go through every contract example: a schema added to the contract without its record
 * here fails them, as does one whose record is here but not in the contract.
 */
public final class ContractRecords {
    private ContractRecords() {}

    /** By schema family, the {@code schema} field of its messages. */
    private static final Map<String, Class<?>> BY_FAMILY =
            Map.of(
                    ThroughputSample.SCHEMA, ThroughputSample.class,
                    PathSample.SCHEMA, PathSample.class,
                    RttSample.SCHEMA, RttSample.class,
                    LatencySample.SCHEMA, LatencySample.class,
                    HostSnapshot.SCHEMA, HostSnapshot.class,
                    LinkStats.SCHEMA, LinkStats.class,
                    Event.SCHEMA, Event.class,
                    DeadLetter.SCHEMA, DeadLetter.class,
                    ProbeRequest.SCHEMA, ProbeRequest.class);

    /** Every schema version the job compiles, in name order, with the record of its messages. */
    public static SortedMap<String, Class<?>> all() {
        SortedMap<String, Class<?>> out = new TreeMap<>();
        for (String schema : Contract.ALL_VERSIONS) {
            Class<?> type = BY_FAMILY.get(Contract.familyOf(schema));
            if (type == null) {
                throw new IllegalStateException(
                        schema + " has no record in ContractRecords: add the one the job makes");
            }
            out.put(schema, type);
        }
        if (out.values().stream().distinct().count() != BY_FAMILY.size()) {
            throw new IllegalStateException(
                    "ContractRecords names a record of a schema the contract lacks: " + BY_FAMILY);
        }
        return out;
    }

    /** Those of raw samples: the schemas of the contract's raw.* topics. */
    public static SortedMap<String, Class<?>> raw() {
        SortedMap<String, Class<?>> out = all();
        out.keySet()
                .removeIf(
                        s -> !ContractNames.RAW_TOPIC_OF_SCHEMA.containsKey(Contract.familyOf(s)));
        return out;
    }
}
