package org.longhaul.flink.records;

import java.util.List;

/** One TTL of a traceroute run with every query's answer. */
public record PathHop(int ttl, List<HopProbe> probes) {}
