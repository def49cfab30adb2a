#!/usr/bin/env bash
# One line per process of the native stack: name, PID, port, health, supervisord's state, how often
# it has crashed and been restarted, resident memory; then the Flink job, then the watchdog's view
# of the pipeline when it runs. Exit 0 only if every service is healthy.
set -uo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LOG_TAG=status
load_services

# the supervisord programs of the services, shown above the others
shown_programs() {
  local svc name
  for svc in ${STACK_SERVICES}; do for name in $("procs_${svc}"); do printf '%s ' "$(prog_of "$name")"; done; done
}

row() { printf '%-18s %8s %6s  %-9s %-9s %8s %7s\n' "$@"; }

main() {
  local svc name health h pid rss ports i all_ok=0 total=0 state restarts line
  if sup_running; then
    echo "supervisor: supervisord pid $(sup_ctl pid), config $(sup_conf)"
  else
    echo "supervisor: not running (make up starts it)"
  fi
  row name pid port health state restarts rss_mb
  for svc in ${STACK_SERVICES}; do
    if "health_${svc}" >/dev/null 2>&1; then health=healthy; else health=unhealthy; fi
    read -r -a ports <<<"$("ports_${svc}")"
    i=0
    for name in $("procs_${svc}"); do
      state="$(svc_state "$name")"
      restarts="$(svc_restarts "$name")"
      if pid="$(svc_pid "$name")"; then
        rss="$(rss_mb "$pid")"
        [ "$rss" = - ] || total=$((total + rss))
        h="$health"
      else
        pid=- rss=- h=stopped
      fi
      [ "$h" = healthy ] || all_ok=1
      row "$name" "$pid" "${ports[$i]:-${ports[0]}}" "$h" "$state" "$restarts" "$rss"
      i=$((i + 1))
    done
  done
  # the other supervised programs: the testbed's agents and forwarders, anything added later
  if sup_running; then
    while read -r prog state _ pid _; do
      case " $(shown_programs) " in *" $prog "*) continue ;; esac
      pid="${pid%,}"
      [[ "$pid" =~ ^[0-9]+$ ]] || pid=-
      rss=-; [ "$pid" = - ] || rss="$(rss_mb "$pid")"
      [ "$rss" = - ] || total=$((total + rss))
      row "$prog" "$pid" - - "$state" "$(svc_restarts "$prog")" "$rss"
    done < <(sup_ctl status 2>/dev/null)
  fi
  row total - - - - - "$total"
  if [ -s "$(bridge_status)" ]; then
    jq -r '"alert bridge: \(.open_alerts) alerts and \(.open_notices) notices open in Alertmanager, \(.events) events read, last post \(.last_post // "never")" + (if .last_error then ", last error: \(.last_error)" else "" end)' \
      "$(bridge_status)" 2>/dev/null || true
  fi
  if [ "${LONGHAUL_JOB_KEEP}" = 1 ]; then
    line="$(job_overview_line 2>/dev/null)"
    if [ -n "$line" ]; then
      read -r state running total_tasks jid <<<"$line"
      echo "job ${LONGHAUL_JOB_NAME}: ${state}, ${running}/${total_tasks} tasks running (${jid})"
    else
      echo "job ${LONGHAUL_JOB_NAME}: not running"
    fi
    echo
    "${LONGHAUL_CLI}" watchdog status --status-file "$(watchdog_status)" || all_ok=1
  fi
  return "$all_ok"
}

main "$@"
