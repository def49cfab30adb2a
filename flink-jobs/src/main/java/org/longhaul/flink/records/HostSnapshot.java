package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** The sender's TCP tuning taken with a throughput run (host_snapshot.v1). */
public record HostSnapshot(
        String schema,
        int version,
        String src,
        String dst,
        String probeId,
        long ts,
        String runId,
        List<Long> tcpRmem,
        List<Long> tcpWmem,
        long rmemMax,
        long wmemMax,
        Boolean windowScaling,
        String congestionControl,
        List<String> availableCongestionControl,
        @JsonProperty("interface") String iface,
        Integer mtu)
        implements HasSrc {

    public static final String SCHEMA = ContractNames.SCHEMA_RAW_HOST;

    /**
     * Its envelope, made from its own components: a snapshot is keyed state (the diagnosis
     * detector's), whose serialized form keeps the six fields flat.
     */
    @Override
    public Envelope envelope() {
        return new Envelope(schema, version, src, dst, probeId, ts);
    }

    /** Largest send buffer TCP autotuning may reach (tcp_wmem max). */
    public long autotuneSendMax() {
        return tcpWmem.get(2);
    }

    /** Largest receive buffer TCP autotuning may reach (tcp_rmem max). */
    public long autotuneReceiveMax() {
        return tcpRmem.get(2);
    }
}
