#!/usr/bin/env bash
# What security costs the Flink job: the same throughput run (bench/flink_throughput.py) on the
# secured stack that is running, then on a stack of its own with LONGHAUL_KAFKA_SECURITY=plaintext
# (its own run folder beside the main one, the same cache), which it starts and stops; the main
# stack is stopped meanwhile (the ports are the same) and started again after. One RESULT line
# with both rates and their ratio. Usage: bench/security_cost.sh [STEPS]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/scripts/stack/lib.sh"
PY="$ROOT/.venv/bin/python"
STEPS="${1:-180}"
run() { "$PY" "$ROOT/bench/flink_throughput.py" --partitions 1 --parallelism 1 --steps "$STEPS" | tee /dev/stderr |
  sed -n 's/^RESULT //p' | tail -1; }

secured="$(run)"
plain_dir="${LONGHAUL_STACK_DIR}-plaintext"
mkdir -p "$plain_dir"
bash "$ROOT/scripts/stack/down.sh" >&2
# a clean environment: every setting of the plaintext stack derives from its own stack folder (its
# downloads and builds from the same cache)
# shellcheck disable=SC2016  # $0 and $1 are the inner bash's arguments, expanded there
plain="$(env -i PATH="$PATH" HOME="${HOME:-/root}" LONGHAUL_STACK_DIR="$plain_dir" LONGHAUL_STACK_CACHE="$LONGHAUL_STACK_CACHE" LONGHAUL_KAFKA_SECURITY=plaintext \
  bash -c 'source "$0/scripts/stack/lib.sh"; bash "$0/scripts/stack/up.sh" >&2 &&
    "$0/.venv/bin/python" "$0/bench/flink_throughput.py" --partitions 1 --parallelism 1 --steps "$1" |
    tee /dev/stderr | sed -n "s/^RESULT //p" | tail -1; bash "$0/scripts/stack/down.sh" >&2' "$ROOT" "$STEPS")"
bash "$ROOT/scripts/stack/up.sh" >&2
"$PY" - "$secured" "$plain" <<'PY'
import json, sys
s, p = (json.loads(x) for x in sys.argv[1:3])
key = next(k for k in ("samples_per_s", "records_per_s") if k in s)
print("RESULT " + json.dumps({"figure": "flink_throughput_security_cost", "sasl_ssl": s[key], "plaintext": p[key],
                              "ratio": round(s[key] / p[key], 3), "unit": key}))
PY
