# The alert bridge (`longhaul alert-bridge`, operator/alerting): follows the events topic and keeps
# Alertmanager in step (alerts, resolutions, notices; rebuilt after any restart). Kafka identity:
# the alerter user (reads events only); Alertmanager identity: the bridge user.
# shellcheck shell=bash

bridge_run()    { echo "${RUN_ROOT}/bridge"; }
bridge_status() { echo "$(bridge_run)/status.json"; }
procs_bridge()  { echo bridge; }
ports_bridge()  { echo -; }
logs_bridge()   { echo "$(bridge_run)/bridge.log"; }
install_bridge()   { :; }
configure_bridge() { mkdir -p "$(bridge_run)"; }

start_bridge() {
  local kafka=()
  if [ "${LONGHAUL_KAFKA_SECURITY}" != plaintext ]; then
    kafka=(LONGHAUL_KAFKA_USER=alerter "LONGHAUL_KAFKA_PASSWORD_FILE=$(ensure_secret kafka-alerter.password)")
  fi
  # shellcheck disable=SC2086  # LONGHAUL_ALERT_BRIDGE_ARGS is a word list
  (
    [ "${#kafka[@]}" = 0 ] || export "${kafka[@]}"
    export LONGHAUL_ALERTMANAGER_USER=bridge
    LONGHAUL_ALERTMANAGER_PASSWORD_FILE="$(ensure_secret alertmanager-bridge.password)"
    export LONGHAUL_ALERTMANAGER_PASSWORD_FILE
    SUP_PRIORITY=35 start_daemon bridge "$(logs_bridge)" \
      "${LONGHAUL_CLI}" alert-bridge --status-file "$(bridge_status)" ${LONGHAUL_ALERT_BRIDGE_ARGS}
  )
}

# Healthy = it runs, has rebuilt its open set, reconciled Alertmanager and written its status
# within the last two minutes.
health_bridge() {
  svc_pid bridge >/dev/null || return 1
  [ -n "$(find "$(bridge_status)" -mmin -2 2>/dev/null)" ] && jq -e '.caught_up' "$(bridge_status)" >/dev/null
}

stop_bridge() { stop_daemon bridge; }
