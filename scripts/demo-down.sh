#!/usr/bin/env bash
# make demo-down: stops the demo's event follower and agents and removes the testbed.
# `demo-down.sh agent-only` stops just the processes (used by demo.sh before it starts them).
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/scripts/stack/lib.sh"
f="$LONGHAUL_STACK_DIR/run/demo/tail.pid"
if [ -f "$f" ]; then
  pid=$(cat "$f")
  kill "$pid" 2>/dev/null && for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$f"
fi
if [ "${1:-}" = agent-only ]; then
  bash "$ROOT/tests/testbed/testbed.sh" agents-stop >/dev/null
  exit 0
fi
bash "$ROOT/tests/testbed/testbed.sh" down
echo "demo down (the stack keeps running: make down)"
