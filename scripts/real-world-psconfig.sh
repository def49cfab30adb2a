#!/usr/bin/env bash
# make real-world-psconfig: the pSConfig planner over published templates (not part of make test).
# For every DIR/*.json (default: ../shared/real-world/psconfig from the repository's parent)
# and every address it names (its includes merged), runs `longhaul-probe plan` and prints one
# line per template: accepted or refused (with the reason), hosts, planned pairs, how many of
# them Longhaul runs, how many pScheduler measures (latency, latencybg: measured_by) and how many are
# unsupported, and the warnings; then the totals.
# DIR/includes/ is served on 127.0.0.1 (a free port, plain http, which the include fetcher
# accepts on loopback only) and the templates' prefix
# https://example.perfsonar.net/psconfig/includes/ is rewritten to it in a temporary copy:
# nothing of DIR is written or copied into the repository.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="${1:-$(dirname "$ROOT")/shared/real-world/psconfig}"
export PATH="/usr/local/go/bin:$PATH"
[[ -d "$DIR" ]] || { echo "real-world-psconfig: no folder $DIR" >&2; exit 1; }

TMP="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

(cd "$ROOT" && go build -o "$TMP/longhaul-probe" ./collectors/cmd/longhaul-probe)
PROBE="$TMP/longhaul-probe"

# The includes, on a free loopback port (python's http.server prints the one it took).
PREFIX="https://example.perfsonar.net/psconfig/includes/"
LOCAL=""
if [[ -d "$DIR/includes" ]]; then
  python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$DIR/includes" >"$TMP/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 50); do
    PORT="$(sed -n 's/.*127\.0\.0\.1 port \([0-9]*\).*/\1/p' "$TMP/server.log" | head -1)"
    [[ -n "$PORT" ]] && break
    sleep 0.1
  done
  [[ -n "${PORT:-}" ]] || { echo "real-world-psconfig: the include server did not start" >&2; cat "$TMP/server.log" >&2; exit 1; }
  LOCAL="http://127.0.0.1:$PORT/"
fi

accepted=0 refused=0 hosts_all=0 pairs_all=0 runs_all=0 unsupported_all=0 pscheduler_all=0
for tmpl in "$DIR"/*.json; do
  name="$(basename "$tmpl")"
  src="$TMP/$name"
  if [[ -n "$LOCAL" ]]; then sed "s|$PREFIX|$LOCAL|g" "$tmpl" >"$src"; else cp "$tmpl" "$src"; fi
  if ! "$PROBE" plan --psconfig "$src" --list-hosts >"$TMP/hosts" 2>"$TMP/err"; then
    refused=$((refused + 1))
    reason="$(sed -e "s|$TMP/||g" -e 's/^longhaul-probe plan: //' "$TMP/err" | head -c 400 | tr '\n' ' ')"
    printf '%-28s REFUSED  %s\n' "$name" "$reason"
    continue
  fi
  accepted=$((accepted + 1))
  hosts=0 pairs=0 runs=0 unsupported=0 pscheduler=0
  while IFS= read -r host; do
    hosts=$((hosts + 1))
    "$PROBE" plan --psconfig "$src" --host "$host" >"$TMP/plan" 2>"$TMP/warn"
    p=$(grep -c . "$TMP/plan" || true)
    u=$(grep -c '"unsupported"' "$TMP/plan" || true)
    m=$(grep -c '"measured_by"' "$TMP/plan" || true)
    pairs=$((pairs + p)) unsupported=$((unsupported + u)) pscheduler=$((pscheduler + m)) runs=$((runs + p - u - m))
  done <"$TMP/hosts"
  warnings=$(grep -c 'warning:' "$TMP/warn" || true)
  printf '%-28s accepted hosts=%d pairs=%d runs=%d pscheduler=%d unsupported=%d warnings=%d\n' \
    "$name" "$hosts" "$pairs" "$runs" "$pscheduler" "$unsupported" "$warnings"
  hosts_all=$((hosts_all + hosts)) pairs_all=$((pairs_all + pairs))
  runs_all=$((runs_all + runs)) unsupported_all=$((unsupported_all + unsupported)) pscheduler_all=$((pscheduler_all + pscheduler))
done
printf 'TOTAL templates=%d accepted=%d refused=%d hosts=%d pairs=%d runs=%d pscheduler=%d unsupported=%d\n' \
  $((accepted + refused)) "$accepted" "$refused" "$hosts_all" "$pairs_all" "$runs_all" "$pscheduler_all" "$unsupported_all"
