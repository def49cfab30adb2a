#!/usr/bin/env bash
# make fuzz: exploration, apart from the gates. Every Fuzz target of the module (found anew each
# time, so new targets join by themselves) runs for an equal share of a time budget. CI and
# make test run no exploration: `go test` replays each target's committed corpus (its golden cases
# and testdata/fuzz/<target>/), so a gate never fails on a new random draw. What this finds is
# written by Go to <package>/testdata/fuzz/<target>/<hash>: fix the cause and commit that file
# with the fix, a seed from then on (probes/README.md).
#   scripts/fuzz.sh [--budget SECONDS] [--match REGEXP]
#     --budget  the whole run's time, shared by the targets (FUZZ_BUDGET, default 600)
#     --match   only the targets whose name matches (default: every target)
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT" || exit 1
export PATH="/usr/local/go/bin:$PATH"
BUDGET="${FUZZ_BUDGET:-600}" MATCH=. OUT="$ROOT/tests/out/fuzz"
while [ $# -gt 0 ]; do
  case "$1" in
    --budget) BUDGET="$2"; shift ;;
    --match) MATCH="$2"; shift ;;
    *) echo "fuzz.sh: unknown argument $1 (see its header)" >&2; exit 2 ;;
  esac
  shift
done

# targets: "PACKAGE DIR TARGET" for every Fuzz target whose name matches
targets() {
  local pkg dir name
  while read -r pkg dir; do
    grep -qs '^func Fuzz' "$dir"/*_test.go || continue
    for name in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' | grep -E -- "$MATCH"); do
      echo "$pkg $dir $name"
    done
  done < <(go list -f '{{.ImportPath}} {{.Dir}}' ./...)
}

# new_inputs DIR TARGET: the corpus files of the target that git does not know yet
new_inputs() {
  git ls-files --others --exclude-standard -- "$1/testdata/fuzz/$2" 2>/dev/null
}

# fuzz_one PACKAGE DIR TARGET SECONDS: 0 unless the target found a failing input. Go minimizes
# each new interesting input for up to 60 s by default: 100 runs are enough here. At its deadline
# Go's coordinator (go1.26) can end with "context deadline exceeded" and no failing input
# (golang/go#75804): a run is judged by the input it writes, not by that exit code.
fuzz_one() {
  local pkg="$1" dir="$2" name="$3" secs="$4" log before after
  log="$OUT/${pkg//\//_}-${name}.log"
  before="$(new_inputs "$dir" "$name")"
  go test -run '^$' -fuzz "^${name}\$" -fuzztime "${secs}s" -fuzzminimizetime 100x "$pkg" >"$log" 2>&1 </dev/null
  after="$(new_inputs "$dir" "$name")"
  if [ "$after" != "$before" ] || grep -q 'Failing input written to' "$log"; then
    echo "FOUND fuzz $pkg $name: a failing input, now a seed to commit with the fix:"
    comm -13 <(echo "$before") <(echo "$after") | sed 's/^/  /'
    grep -m 5 -E '^\s+\S+_test\.go:[0-9]+:' "$log" | sed 's/^\s*/  /'
    return 1
  fi
  if ! grep -qE '^(ok|PASS)' "$log" && ! grep -q 'context deadline exceeded' "$log"; then
    echo "FAIL fuzz $pkg $name (did not run; $log):"
    tail -n 10 "$log"
    return 1
  fi
  echo "fuzz $pkg $name: nothing found in ${secs} s ($(grep -oE 'execs: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2) runs)"
}

main() {
  local list n secs failed=0 pkg dir name
  mkdir -p "$OUT"
  mapfile -t list < <(targets)
  n="${#list[@]}"
  [ "$n" -gt 0 ] || { echo "fuzz.sh: no Fuzz target matches $MATCH" >&2; exit 2; }
  secs=$((BUDGET / n))
  [ "$secs" -ge 5 ] || secs=5
  echo "fuzz: $n targets, ${secs} s each (budget ${BUDGET} s)"
  for t in "${list[@]}"; do
    read -r pkg dir name <<<"$t"
    fuzz_one "$pkg" "$dir" "$name" "$secs" || failed=$((failed + 1))
  done
  echo "fuzz: $failed of $n targets found something"
  [ "$failed" = 0 ]
}

main
