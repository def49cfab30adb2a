#!/usr/bin/env bash
# make real-world-outputs: how the importers fare against outputs other people published
# (../shared/real-world/tool-outputs: one folder per tool, each file beside a .src provenance).
# Runs bin/longhaul-probe parse over every file, --tool chosen by the folder, checks what it
# prints with bin/longhaul validate (the contract's schemas) and prints one line a file:
#   ok (N samples, valid) | refused (reason) | INVALID (reason)
# then "N of M parse into valid samples". The files are read, never copied into the project.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="${1:-$ROOT/../shared/real-world/tool-outputs}"
[[ -d "$DIR" ]] || { echo "real-world-outputs: $DIR: no such folder (give the tool-outputs folder)" >&2; exit 2; }
PROBE="$ROOT/bin/longhaul-probe" VALIDATE="$ROOT/bin/longhaul"
[[ -x "$PROBE" && -x "$VALIDATE" ]] || { echo "real-world-outputs: build first (make build-go)" >&2; exit 2; }
# The outputs carry no link ends or start time of their own (most of them): these stand in.
ENDS=(--src src.example.net --dst dst.example.net --ts 1700000000000)
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT

good=0 total=0 invalid=0
for f in "$DIR"/*/*; do
  case "$f" in *.src) continue ;; esac
  folder="$(basename "$(dirname "$f")")"
  case "$folder" in
    pscheduler|pscheduler-latency) tool=pscheduler ;;
    *) tool="$folder" ;;
  esac
  total=$((total + 1))
  name="$folder/$(basename "$f")"
  # pScheduler messages name their own ends and time; bare results and run records may not
  if [[ $tool == pscheduler ]] && "$PROBE" parse --tool pscheduler "$f" >"$TMP/out" 2>"$TMP/err"; then
    :
  elif ! "$PROBE" parse --tool "$tool" "${ENDS[@]}" "$f" >"$TMP/out" 2>"$TMP/err"; then
    reason="$(grep -v '^longhaul-probe: note:' "$TMP/err" | head -c 600 | tr '\n' ' ')"
    echo "refused  $name: $reason"
    continue
  fi
  n="$(grep -c . "$TMP/out" || true)"
  if [[ $n -eq 0 ]]; then
    echo "refused  $name: no samples"
  elif "$VALIDATE" validate "$TMP/out" >"$TMP/val" 2>/dev/null; then
    echo "ok       $name ($n samples, valid)"
    good=$((good + 1))
  else
    invalid=$((invalid + 1))
    echo "INVALID  $name ($n samples): $(head -c 600 "$TMP/val" | tr '\n' ' ')"
  fi
done
note=""; [[ $invalid -gt 0 ]] && note=" ($invalid with invalid samples)"
echo "$good of $total parse into valid samples$note"
[[ $invalid -eq 0 ]]
