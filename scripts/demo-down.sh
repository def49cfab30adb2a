#!/usr/bin/env bash
# make demo-down: stops the demo's agent and event follower and removes the testbed.
# `demo-down.sh agent-only` stops just the processes (used by demo.sh before it starts them).
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/scripts/stack/lib.sh"
DEMO="$LONGHAUL_STACK_DIR/run/demo"
for p in agent tail; do
  f="$DEMO/$p.pid"
  [ -f "$f" ] || continue
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"; for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
done
[ "${1:-}" = agent-only ] && exit 0
bash "$ROOT/tests/testbed/testbed.sh" down
echo "demo down (the stack keeps running: make down)"
