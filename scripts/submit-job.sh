#!/usr/bin/env bash
# Submits bin/longhaul-flink.jar (LinkMonitorJob) to the native Flink cluster unless a job of
# the same name is already running. Extra arguments go to the job (see flink-jobs/README.md).
# Usage: submit-job.sh [JOB_NAME] [job args...]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/scripts/stack/lib.sh"
NAME="${1:-longhaul-link-monitor}"; shift || true
REST="http://127.0.0.1:$LONGHAUL_FLINK_REST_PORT"
JAR="$ROOT/bin/longhaul-flink.jar"
[ -f "$JAR" ] || { echo "submit-job: $JAR missing (make build-flink)" >&2; exit 1; }
running=$(curl -fsS "$REST/jobs/overview" | jq -r --arg n "$NAME" '.jobs[] | select(.name==$n and .state=="RUNNING") | .jid' | head -1)
if [ -n "$running" ]; then echo "job $NAME already running ($running)"; exit 0; fi
jar_id=$(curl -fsS -X POST -F "jarfile=@$JAR" "$REST/jars/upload" | jq -r '.filename' | sed 's|.*/||')
args=$(jq -cn --arg n "$NAME" '$ARGS.positional + ["--job-name", $n, "--transactional-id-prefix", $n, "--group-id", $n]' --args -- "$@")
body=$(jq -cn --argjson a "$args" '{entryClass: "org.longhaul.flink.jobs.LinkMonitorJob", programArgsList: $a}')
jid=$(curl -fsS -X POST -H 'Content-Type: application/json' -d "$body" "$REST/jars/$jar_id/run" | jq -r '.jobid')
for _ in $(seq 1 60); do
  state=$(curl -fsS "$REST/jobs/$jid" | jq -r '.state')
  [ "$state" = RUNNING ] && { echo "job $NAME running ($jid)"; exit 0; }
  [ "$state" = FAILED ] && { curl -fsS "$REST/jobs/$jid/exceptions" | jq -r '.["root-exception"]' | head -20 >&2; exit 1; }
  sleep 1
done
echo "submit-job: $NAME not running after 60 s (state $state)" >&2; exit 1
