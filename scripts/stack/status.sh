#!/usr/bin/env bash
# One line per process of the native stack: name, PID, port, health, resident memory.
# Exit 0 only if every service is healthy.
set -uo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LOG_TAG=status
load_services

main() {
  local svc name health h pid rss ports i all_ok=0 total=0
  printf '%-18s %8s %6s  %-9s %7s\n' name pid port health rss_mb
  for svc in kafka influxdb flink telegraf; do
    if "health_${svc}" >/dev/null 2>&1; then health=healthy; else health=unhealthy; fi
    read -r -a ports <<<"$("ports_${svc}")"
    i=0
    for name in $("procs_${svc}"); do
      if pid="$(svc_pid "$name")"; then
        rss="$(rss_mb "$pid")"
        [ "$rss" = - ] || total=$((total + rss))
        h="$health"
      else
        pid=- rss=- h=stopped
      fi
      [ "$h" = healthy ] || all_ok=1
      printf '%-18s %8s %6s  %-9s %7s\n' "$name" "$pid" "${ports[$i]:-${ports[0]}}" "$h" "$rss"
      i=$((i + 1))
    done
  done
  printf '%-18s %8s %6s  %-9s %7s\n' total - - - "$total"
  return "$all_ok"
}

main "$@"
