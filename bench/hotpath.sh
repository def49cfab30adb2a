#!/usr/bin/env bash
# CPU per raw message of the job's hot path, stage by stage, on one thread without Flink or Kafka
# (flink-jobs/src/test/java/org/longhaul/flink/bench/HotPathBench.java): ts peek, parse, schema
# validation, binding, and the whole check; the replay filter's memory and a link key written into a
# compressed heap snapshot, each against what it replaced. Input: 200 links × 30 steps of longhaul-bench-gen.
# Usage: bash bench/hotpath.sh [ROUNDS]   (default 30 passes over 6,800 messages)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/stack/lib.sh"
ROUNDS="${1:-30}"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
"${LONGHAUL_ROOT}/bin/longhaul-bench-gen" -print -links 200 -steps 30 >"$TMP/samples.jsonl" 2>/dev/null
cd "${LONGHAUL_ROOT}/flink-jobs"
mvn -q -B -o test-compile dependency:build-classpath -Dmdep.outputFile="$TMP/cp.txt" >/dev/null 2>&1 \
  || mvn -q -B test-compile dependency:build-classpath -Dmdep.outputFile="$TMP/cp.txt" >/dev/null
"${LONGHAUL_JAVA_HOME}/bin/java" -cp "target/test-classes:target/classes:$(cat "$TMP/cp.txt")" \
  org.longhaul.flink.bench.HotPathBench "$TMP/samples.jsonl" "$ROUNDS" 2>/dev/null
