#!/usr/bin/env bash
# Stop the native stack: the Flink job first, with a savepoint (its keeper before it), then Telegraf,
# Flink, Kafka and InfluxDB, then supervisord. Data under .stack/run stays: the next `up` restores
# the job from that savepoint. Exits non-zero if any process survives.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LOG_TAG=down
load_services

# Server processes (java, influxd, telegraf, alertmanager, the CLI's daemons, the sink) whose command line still points into the stack dir:
# ours, or strays such as a Flink daemon started by hand with FLINK_CONF_DIR=.stack/run/flink/conf.
# Reported, never killed here (only PIDs from our PID files are ever signalled).
survivors() {
  local p pid exe
  for p in /proc/[0-9]*; do
    pid="${p#/proc/}"
    exe="$(readlink "$p/exe" 2>/dev/null)" || continue
    case "${exe##*/}" in
      java | influxd | telegraf | alertmanager | longhaul) ;;
      python3*) grep -qF notify_sink "$p/cmdline" 2>/dev/null || continue ;; # the sink, not supervisord
      *) continue ;;
    esac
    pid_is_ours "$pid" 2>/dev/null || continue
    printf '%s %s\n' "$pid" "$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null | cut -c1-160)"
  done
}

main() {
  local svc name pid pids=() failed=0 left services
  read -ra services <<<"${STACK_SERVICES}"
  for svc in $(printf '%s\n' "${services[@]}" | tac); do
    for name in $("procs_${svc}"); do
      if pid="$(svc_pid "$name")"; then pids+=("$pid"); fi
    done
    "stop_${svc}"
  done
  for pid in "${pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      log "ERROR: pid ${pid} is still alive after stop"
      failed=1
    fi
  done
  left="$(survivors)"
  if [ -n "$left" ]; then
    log "ERROR: processes still running from ${LONGHAUL_STACK_DIR}:"
    printf '%s\n' "$left" >&2
    failed=1
  fi
  stop_supervisord
  [ "$failed" = 0 ] || exit 1
  log "stack down (${#pids[@]} processes stopped; data kept in ${RUN_ROOT})"
}

main "$@"
