package org.longhaul.flink.jobs;

import org.apache.flink.api.connector.source.Source;
import org.longhaul.flink.records.RawMessage;

/**
 * The five raw inputs of the pipeline: Kafka topics in production, bounded sources in replay and
 * tests.
 */
public record Sources(
        Source<RawMessage, ?, ?> throughput,
        Source<RawMessage, ?, ?> path,
        Source<RawMessage, ?, ?> rtt,
        Source<RawMessage, ?, ?> latency,
        Source<RawMessage, ?, ?> host) {}
