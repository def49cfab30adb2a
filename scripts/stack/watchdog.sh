# The watchdog (operator/watchdog): outside what it watches, it turns a silent agent, growing
# consumer lag, the job not running or restarting in a loop, failing checkpoints or InfluxDB
# writes, and a skewed agent clock into pipeline_degraded / pipeline_recovered events, and keeps
# run/watchdog/status.json for `make status`. It watches the kept job, so it runs with it
# (LONGHAUL_JOB_KEEP=1); its Kafka identity is its own user (reads results, writes events only).
# shellcheck shell=bash

watchdog_run()    { echo "${RUN_ROOT}/watchdog"; }
watchdog_status() { echo "$(watchdog_run)/status.json"; }
procs_watchdog()  { [ "${LONGHAUL_JOB_KEEP}" = 1 ] && echo watchdog; }
ports_watchdog()  { echo -; }
logs_watchdog()   { echo "$(watchdog_run)/watchdog.log"; }
install_watchdog()   { :; }
configure_watchdog() { mkdir -p "$(watchdog_run)"; }

start_watchdog() {
  [ "${LONGHAUL_JOB_KEEP}" = 1 ] || return 0
  local user=() pw
  if [ "${LONGHAUL_KAFKA_SECURITY}" != plaintext ]; then
    pw="$(ensure_secret kafka-watchdog.password)"
    user=(LONGHAUL_KAFKA_USER=watchdog "LONGHAUL_KAFKA_PASSWORD_FILE=${pw}")
  fi
  # shellcheck disable=SC2086  # LONGHAUL_WATCHDOG_ARGS is a word list
  (
    [ "${#user[@]}" = 0 ] || export "${user[@]}"
    SUP_PRIORITY=40 start_daemon watchdog "$(logs_watchdog)" \
      "${LONGHAUL_CLI}" watchdog --job "${LONGHAUL_JOB_NAME}" --status-file "$(watchdog_status)" ${LONGHAUL_WATCHDOG_ARGS}
  )
}

# Healthy = it runs and has written its status within the last two minutes.
health_watchdog() {
  [ "${LONGHAUL_JOB_KEEP}" = 1 ] || return 0
  svc_pid watchdog >/dev/null || return 1
  [ -n "$(find "$(watchdog_status)" -mmin -2 2>/dev/null)" ]
}

stop_watchdog() { stop_daemon watchdog; }
