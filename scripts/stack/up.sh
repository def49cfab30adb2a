#!/usr/bin/env bash
# Bring the native stack up on 127.0.0.1: install what is missing (cached in LONGHAUL_STACK_CACHE),
# write configs into .stack/run, start Kafka, InfluxDB and Flink, run `longhaul setup` (topics,
# database, retention), then Telegraf, the notification sink and Alertmanager, then the alert
# bridge, then the Flink job's keeper, which submits the job restored
# from its newest savepoint or checkpoint, and the watchdog. Every process runs under supervisord
# (supervise.sh).
# Services that are already healthy are left alone.
# Exits non-zero, with the tail of the failing service's log, if anything does not come up.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LOG_TAG=up
load_services
use_jdk17
# the stack's data (Kafka's logs, InfluxDB's shards, Flink's checkpoints) and secrets are root's
# alone: no other local user reads a site's results or a job's state from the folder
install -d -m 0700 "${RUN_ROOT}"

declare -A INSTALL_S START_S STATE LAUNCHED_AT

install_svc() {
  local svc="$1" t0
  t0="$(now_ms)"
  "install_${svc}"
  INSTALL_S[$svc]="$(elapsed_s "$t0" "$(now_ms)")"
}

# Start whichever of the service's processes is not running (a healthy service is left alone).
launch_svc() {
  local svc="$1" name missing=0
  LAUNCHED_AT[$svc]="$(now_ms)"
  if "health_${svc}" >/dev/null 2>&1; then
    STATE[$svc]="already healthy"
    log "${svc}: already healthy, left alone"
    return 0
  fi
  for name in $("procs_${svc}"); do svc_given_up "$name" && missing=1; done
  if [ "$missing" = 0 ]; then
    STATE[$svc]="was running"
    log "${svc}: running but not healthy yet; waiting for it"
    return 0
  fi
  "configure_${svc}"
  "start_${svc}"
  STATE[$svc]="started"
}

# await_all SVC...: poll every pending service once a second until all are healthy; each one's start
# time is taken when it is first seen healthy. A service whose process dies, or that is not healthy
# within LONGHAUL_START_TIMEOUT, fails the run with the tail of its logs.
await_all() {
  local pending=("$@") still svc name deadline
  deadline=$(($(date +%s) + LONGHAUL_START_TIMEOUT))
  while [ "${#pending[@]}" -gt 0 ]; do
    still=()
    for svc in "${pending[@]}"; do
      if "health_${svc}" >/dev/null 2>&1; then
        if [ "${STATE[$svc]}" != "already healthy" ]; then
          START_S[$svc]="$(elapsed_s "${LAUNCHED_AT[$svc]}" "$(now_ms)")"
          log "${svc}: healthy"
        fi
        continue
      fi
      for name in $("procs_${svc}"); do
        svc_given_up "$name" && fail_svc "$svc" "${name} exited while starting ($(svc_state "$name"))"
      done
      [ "$(date +%s)" -lt "$deadline" ] || fail_svc "$svc" "not healthy within ${LONGHAUL_START_TIMEOUT}s"
      still+=("$svc")
    done
    pending=("${still[@]}")
    [ "${#pending[@]}" -eq 0 ] || sleep 1
  done
}

fail_svc() {
  local svc="$1" f
  log "${svc}: $2"
  for f in $("logs_${svc}"); do show_log "$f" 40; done
  print_timings
  exit 1
}

run_setup() {
  local t0
  t0="$(now_ms)"
  if [ "${LONGHAUL_KAFKA_SECURITY}" != plaintext ]; then
    # the services' Kafka users, each with its password file and its ACLs
    # the tests' own SCRAM user, a super user on their stack only (LONGHAUL_KAFKA_TEST_SUPER_USER)
    for u in flink telegraf operator watchdog alerter psbridge importer ${LONGHAUL_KAFKA_TEST_SUPER_USER:-}; do
      ensure_secret "kafka-$u.password" >/dev/null
    done
  fi
  # InfluxDB's writer (Telegraf) and reader (CLI, reports, Grafana); setup runs as InfluxDB's admin
  for u in writer reader; do ensure_secret "influx-$u.password" >/dev/null; done
  log "longhaul setup: topics, Kafka users and ACLs, database, retention, InfluxDB users"
  LONGHAUL_INFLUX_USER=admin LONGHAUL_INFLUX_PASSWORD_FILE="$(ensure_secret influx-admin.password)" \
    "${LONGHAUL_CLI}" setup --topics "${LONGHAUL_TOPICS_FILE}" --retention "${LONGHAUL_RETENTION_FILE}" \
    --users-from "${LONGHAUL_SECRETS_DIR}" || die "'${LONGHAUL_CLI} setup' failed (build it with: make build-go)"
  START_S[setup]="$(elapsed_s "$t0" "$(now_ms)")"
  STATE[setup]="done"
}

# job_submitted_since N: the keeper's submission line after line N of its log, if any.
job_submitted_since() {
  tail -n "+$(($1 + 1))" "$(job_log)" 2>/dev/null | grep "keeper: submitted" | tail -n 1 | sed 's/^[^ ]* keeper: //' | grep .
}

print_timings() {
  local svc
  printf '%-12s %9s %8s  %s\n' service install_s start_s state
  for svc in kafka influxdb zookeeper flink setup telegraf sink alertmanager bridge job watchdog; do
    printf '%-12s %9s %8s  %s\n' "$svc" "${INSTALL_S[$svc]:--}" "${START_S[$svc]:--}" "${STATE[$svc]:--}"
  done
}

main() {
  local t0 svc
  t0="$(now_ms)"
  # one installer at a time in a cache that other checkouts' stacks share
  mkdir -p "${CACHE_DIR}"
  exec {cache_lock}>"${CACHE_DIR}/.install.lock"
  flock "${cache_lock}"
  for svc in ${STACK_SERVICES}; do install_svc "$svc"; done
  exec {cache_lock}>&-
  # The three servers start side by side; each is timed from its launch to healthy.
  for svc in kafka influxdb zookeeper flink; do launch_svc "$svc"; done
  await_all kafka influxdb zookeeper flink
  run_setup
  # Telegraf consumes result topics into InfluxDB: only once both and the topics exist.
  # Alertmanager, where the bridge posts, and the sink, where Alertmanager delivers, beside it.
  for svc in telegraf sink alertmanager; do launch_svc "$svc"; done
  await_all telegraf sink alertmanager
  # a running Alertmanager takes the config as this environment renders it (timings, receivers)
  if [ "${STATE[alertmanager]}" = "already healthy" ]; then configure_alertmanager; reload_alertmanager; fi
  # The bridge reads events as the alerter user (made by setup) into Alertmanager.
  launch_svc bridge
  await_all bridge
  # The job last: its keeper restores it from its newest savepoint or retained checkpoint.
  if [ "${LONGHAUL_JOB_KEEP}" = 1 ]; then
    local seen=0
    [ ! -f "$(job_log)" ] || seen="$(wc -l <"$(job_log)")"
    launch_svc job
    await_all job
    # the keeper logs a submission once the job runs; none when the job was running already
    if wait_for 15 job_submitted_since "$seen"; then
      log "job: $(job_submitted_since "$seen")"
    else
      log "job ${LONGHAUL_JOB_NAME}: was running, left alone"
    fi
    launch_svc watchdog
    await_all watchdog
  fi
  write_cli_env
  print_timings
  log "stack up in $(elapsed_s "$t0" "$(now_ms)")s (status: bash scripts/stack/status.sh)"
}

# The programs find the development stack through explicit settings, never by searching for a
# checkout: STACK_DIR/env exports them, so `. .stack/env` points bin/longhaul at this stack.
write_cli_env() {
  local v
  for v in LONGHAUL_STACK_DIR LONGHAUL_KAFKA LONGHAUL_INFLUX LONGHAUL_INFLUX_DB LONGHAUL_FLINK \
    LONGHAUL_ALERTMANAGER LONGHAUL_FLINK_JAR LONGHAUL_STACK_CACHE; do
    printf 'export %s=%q\n' "$v" "${!v}"
  done >"${LONGHAUL_STACK_DIR}/env"
}

main "$@"
