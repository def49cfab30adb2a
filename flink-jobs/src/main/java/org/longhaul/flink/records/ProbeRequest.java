package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * The job asks the agent {@code src} for one extra run of its throughput probe {@code probeId}
 * towards {@code dst} before {@code expiresTs} (probe_request.v2, topic longhaul.probe-requests).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProbeRequest(
        String schema,
        int version,
        String src,
        String dst,
        String probeId,
        long ts,
        String requestId,
        String reason,
        String message,
        long expiresTs,
        Map<String, Object> evidence)
        implements OnLink {

    public static final String SCHEMA = ContractNames.SCHEMA_PROBE_REQUESTS;

    public static ProbeRequest of(
            String src,
            String dst,
            String probeId,
            long ts,
            String reason,
            String message,
            long expiresTs,
            Map<String, Object> evidence) {
        String id = "confirm:" + Links.key(src, dst, probeId) + "@" + ts;
        return new ProbeRequest(
                SCHEMA,
                ContractNames.VERSION_PROBE_REQUESTS,
                src,
                dst,
                probeId,
                ts,
                id,
                reason,
                message,
                expiresTs,
                evidence == null || evidence.isEmpty() ? null : evidence);
    }
}
