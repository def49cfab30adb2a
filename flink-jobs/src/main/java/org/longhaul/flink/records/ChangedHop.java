package org.longhaul.flink.records;

/** A hop of a route change: the dominant address before and after at that TTL (null for `*`). */
public record ChangedHop(int ttl, String before, String after) {}
