package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * Something an operator should know about a link (event.v4; the version is the contract's,
 * ContractNames.VERSION_EVENTS). {@code ts} is the event time of the evidence; {@code evidence}
 * holds the numbers behind it. Build with {@link EventBuilder}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Event(
        String schema,
        int version,
        String kind,
        String src,
        String dst,
        String probeId,
        long ts,
        String severity,
        String message,
        String protocol,
        String episodeId,
        String cause,
        List<String> pathBefore,
        List<String> pathAfter,
        List<ChangedHop> changedHops,
        Location location,
        List<IncidentLink> links,
        Map<String, Object> evidence)
        implements OnLink {

    public static final String SCHEMA = ContractNames.SCHEMA_EVENTS;

    /**
     * Starts an event of a contract kind (ingest/contract.yaml); {@code kind} holds its wire name.
     */
    public static EventBuilder builder(
            EventKind kind, String src, String dst, String detector, long ts) {
        return new EventBuilder(kind.wire(), src, dst, detector, ts);
    }
}
