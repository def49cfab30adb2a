#!/usr/bin/env bash
# What a week of state costs on each Flink state backend (hashmap; RocksDB with incremental
# checkpoints): the job's pipeline on an embedded cluster fed a week of probes of N links at the
# production cadence; checkpoint sizes and durations, throughput, restore times
# (flink-jobs/src/test/java/org/longhaul/flink/bench/StateBackendBench.java). Needs no stack.
# Usage: bash bench/state_backends.sh [--links 1000,10000] [--backends hashmap,rocksdb] [--days 7]
#                                     [--dense-hours 6] [--managed-mb 512] [--checkpoint-interval-ms 5000]
#                                     [--compression true|false]   (Flink snapshot compression; the job: true)
#                                     [--wait-minutes 30]          (the longest any one step may take)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec bash "$ROOT/scripts/flink-test-main.sh" "-Xmx${BENCH_HEAP:-3g}" -XX:+UseParallelGC \
  org.longhaul.flink.bench.StateBackendBench "$@"
