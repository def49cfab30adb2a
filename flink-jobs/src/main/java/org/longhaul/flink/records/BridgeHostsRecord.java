package org.longhaul.flink.records;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * One record of the bridge.hosts topic (bridge_hosts.v1): the key is the bridge's Kafka user, the
 * value its host list, or none (a tombstone: the bridge was removed).
 */
public final class BridgeHostsRecord {
    private BridgeHostsRecord() {}

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The hosts of {@code bridge} (the record's key) in {@code value}; null for a tombstone; an
     * {@link IOException} saying why for a value that is not its bridge's list.
     */
    public static Set<String> hosts(String bridge, byte[] value) throws IOException {
        if (value == null) {
            return null;
        }
        JsonNode n = JSON.readTree(value);
        if (n == null
                || !ContractNames.SCHEMA_BRIDGE_HOSTS.equals(n.path("schema").asText())
                || n.path("version").asInt() != ContractNames.VERSION_BRIDGE_HOSTS) {
            throw new IOException("not a " + ContractNames.SCHEMA_BRIDGE_HOSTS + " v1 message");
        }
        if (bridge == null || !bridge.equals(n.path("bridge").asText())) {
            throw new IOException(
                    "bridge " + n.path("bridge") + " under the key of " + bridge + ": ignored");
        }
        JsonNode hosts = n.path("hosts");
        if (!hosts.isArray()) {
            throw new IOException("hosts: not an array");
        }
        Set<String> out = new HashSet<>();
        for (JsonNode h : hosts) {
            if (!h.isTextual()) {
                throw new IOException("hosts: " + h + " is not a host name");
            }
            out.add(h.asText());
        }
        return Set.copyOf(out);
    }
}
