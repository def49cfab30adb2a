package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One traceroute query at a hop: the address that answered (null for `*`), its RTT and annotation.
 */
public record HopProbe(
        @JsonInclude(JsonInclude.Include.ALWAYS) String addr,
        String name,
        @JsonInclude(JsonInclude.Include.ALWAYS) Double rttMs,
        String annotation,
        Long asn) {}
