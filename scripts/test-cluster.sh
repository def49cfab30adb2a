#!/usr/bin/env bash
# The scaled-out tests (tests/cluster): the native stack with a 3-broker KRaft cluster
# (LONGHAUL_KAFKA_BROKERS_N=3: replication factor 3, min.insync.replicas 2), two Flink
# TaskManagers (LONGHAUL_FLINK_TASKMANAGERS=2, one slot each) and two JobManagers in ZooKeeper
# HA (LONGHAUL_FLINK_HA=zookeeper), in a stack folder of
# its own (.stack-cluster, made anew each time; downloads and builds shared with .stack), started
# and stopped here. Every port is the default's + 10000 (Kafka 19092, 19102, 19112, Flink 18081,
# ...): a default stack may run beside it.
# scripts/test-all.sh runs this last; the junit report goes to tests/out/pytest-cluster.xml.
#   scripts/test-cluster.sh         start the stack anew, run tests/cluster, stop the stack
#   scripts/test-cluster.sh up      start it anew and leave it running (scripts/test-all.sh starts it
#                                   while the install tier runs, beside the default stack)
#   scripts/test-cluster.sh tests   run tests/cluster on the stack `up` started, then stop it
#   scripts/test-cluster.sh down    stop it (its processes are named by the settings above)
#   scripts/test-cluster.sh fleet [ARGS]  start it anew with the production job kept (parallelism
#                                   2, one task a TaskManager), run bench/fleet.py ARGS on it (the
#                                   fleet simulator through the bridge; --kill-broker N@S loses a
#                                   broker mid-run), stop it (`BENCH_ONLY=cluster make bench`)
set -uo pipefail
mode="${1:-all}"
case "$mode" in all | up | tests | down | fleet) ;; *) echo "usage: $0 [up|tests|down|fleet [ARGS]]" >&2; exit 2 ;; esac
shift $(($# > 0 ? 1 : 0))
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT" || exit 1
cache="${LONGHAUL_STACK_CACHE:-}" # the caller's cache, else defaults.env's
# the environment of a default stack (a caller that sourced lib.sh) would name one broker
for v in $(compgen -e | grep '^LONGHAUL_'); do unset "$v"; done
export LONGHAUL_STACK_DIR="$ROOT/.stack-cluster"
[ -z "$cache" ] || export LONGHAUL_STACK_CACHE="$cache"
# three brokers; two TaskManagers of one slot each, so the job at parallelism 2 runs on both;
# two JobManagers in ZooKeeper HA, and no keeper: a lost leader's jobs come back by HA alone
export LONGHAUL_KAFKA_BROKERS_N=3 LONGHAUL_FLINK_TASKMANAGERS=2 LONGHAUL_FLINK_TASK_SLOTS=1 \
  LONGHAUL_FLINK_HA=zookeeper LONGHAUL_JOB_KEEP=0
if [ "$mode" = fleet ]; then # the production job, as make up keeps it, on both TaskManagers
  export LONGHAUL_JOB_KEEP=1 LONGHAUL_JOB_ARGS_FILE="$ROOT/.stack-cluster/fleet-job.args"
  mkdir -p "$ROOT/.stack-cluster" && echo "--parallelism 2" >"$LONGHAUL_JOB_ARGS_FILE"
fi
eval "$(sed -n 's/^: "\${\(LONGHAUL_[A-Z_]*_PORT\):=\([1-9][0-9]*\)}".*/export \1=$((\2 + 10000))/p' scripts/stack/services.env)"
export LONGHAUL_FLINK_METRICS_PORTS=16126-16127
# seven JVMs on two cores beside the install tier: Flink's RPCs get 30 s, not 10 (deploy/services.yaml)
export LONGHAUL_FLINK_ASK_TIMEOUT=30s
source scripts/stack/lib.sh
OUT="$ROOT/tests/out"
mkdir -p "$OUT"

# the tests' own clients: SCRAM user admin, which this stack's brokers make a super user
export LONGHAUL_KAFKA_TEST_SUPER_USER=admin
start_anew() {
  if sup_running; then bash scripts/stack/down.sh; fi
  rm -rf "$LONGHAUL_STACK_DIR/run"
  bash scripts/stack/up.sh || { echo "the 3-broker stack failed to start"; return 1; }
}
case "$mode" in
  up) start_anew || { bash scripts/stack/down.sh; exit 1; }; exit 0 ;;
  down) exec bash scripts/stack/down.sh ;;
  all | fleet) trap 'bash "$ROOT/scripts/stack/down.sh"' EXIT && start_anew || exit 1 ;;
  tests)
    trap 'bash "$ROOT/scripts/stack/down.sh"' EXIT
    sup_running || { echo "no 3-broker stack runs: $0 up starts one"; exit 1; } ;;
esac
export LONGHAUL_STACK_DIR
export LONGHAUL_KAFKA_USER=admin LONGHAUL_KAFKA_PASSWORD_FILE="$LONGHAUL_SECRETS_DIR/kafka-admin.password"
if [ "$mode" = fleet ]; then
  "$ROOT/.venv/bin/python" "$ROOT/bench/fleet.py" "$@"
  exit $? # the trap stops the stack
fi
"$ROOT/.venv/bin/python" -m pytest -q tests/cluster --junitxml="$OUT/pytest-cluster.xml"
