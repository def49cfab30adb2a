package org.longhaul.flink.jobs;

import org.apache.flink.api.connector.source.Source;
import org.longhaul.flink.functions.BridgeLists;
import org.longhaul.flink.records.RawMessage;

/**
 * The five raw inputs of the pipeline, and the bridges' host lists that judge them: Kafka topics in
 * production, bounded sources and fixed lists in replay and tests.
 */
public record Sources(
        Source<RawMessage, ?, ?> throughput,
        Source<RawMessage, ?, ?> path,
        Source<RawMessage, ?, ?> rtt,
        Source<RawMessage, ?, ?> latency,
        Source<RawMessage, ?, ?> host,
        BridgeLists bridges) {}
