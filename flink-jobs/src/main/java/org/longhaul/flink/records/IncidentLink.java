package org.longhaul.flink.records;

import java.util.List;

/**
 * A degraded link an incident explains (event.v4 {@code links}): the open alert kinds that make it
 * degraded, in the contract's order.
 */
public record IncidentLink(String src, String dst, List<String> kinds) {}
