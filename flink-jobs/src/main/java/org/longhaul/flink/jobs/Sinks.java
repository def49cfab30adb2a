package org.longhaul.flink.jobs;

import org.apache.flink.api.connector.sink2.Sink;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.Event;
import org.longhaul.flink.records.LinkStats;
import org.longhaul.flink.records.ProbeRequest;
import org.longhaul.flink.records.Validated;

/**
 * The outputs of the pipeline: Kafka topics in production, stdout/stderr in replay. {@code paths}
 * are the live traces that passed validation, as the agents wrote them, for Telegraf to write to
 * InfluxDB.
 */
public record Sinks(
        Sink<LinkStats> stats,
        Sink<Event> events,
        Sink<DeadLetter> deadLetters,
        Sink<ProbeRequest> probeRequests,
        Sink<Validated> paths) {}
