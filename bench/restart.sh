#!/usr/bin/env bash
# make down → make up with the production job: seconds to stop (the job's savepoint first), and
# seconds from `up` to the job RUNNING with every task and restored from that savepoint (Flink's
# /jobs/<id>/checkpoints latest.restored). Runs CYCLES cycles (default 3) on the native stack,
# which must be up with its job (make up). Prints one RESULT line per cycle.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
source scripts/stack/lib.sh
load_services
CYCLES="${1:-3}"
if ! { [ "${LONGHAUL_JOB_KEEP}" = 1 ] && health_job; }; then die "the stack and its job must run (make up)"; fi
for i in $(seq 1 "$CYCLES"); do
  t0="$(now_ms)"
  bash scripts/stack/down.sh >/dev/null 2>&1
  t1="$(now_ms)"
  saved="$(find "${LONGHAUL_FLINK_STATE_DIR}/savepoints/${LONGHAUL_JOB_NAME}" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p/\n' | sort -rn | head -n 1 | cut -d' ' -f2-)"
  bash scripts/stack/up.sh >/dev/null 2>&1
  until health_job; do sleep 0.2; done
  t2="$(now_ms)"
  jid="$(job_overview_line | awk '{ print $4 }')"
  restored="$(flink_get "/jobs/${jid}/checkpoints" | jq -r '.latest.restored.external_path // "none"')"
  [ "${restored%/}" = "file:${saved%/}" ] || die "cycle $i: restored ${restored}, not the savepoint ${saved}"
  echo "RESULT $(jq -cn --argjson cycle "$i" --arg down "$(elapsed_s "$t0" "$t1")" --arg up "$(elapsed_s "$t1" "$t2")" \
    --arg restored "$restored" '{figure:"restart",cycle:$cycle,down_s:($down|tonumber),up_to_job_restored_s:($up|tonumber),restored:$restored}')"
done
