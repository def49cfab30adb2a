# The local notification sink (alerting/sink/notify_sink.py): a real SMTP server and a webhook
# receiver on 127.0.0.1 where Alertmanager delivers on the demo and test stacks; each message is
# stored under run/sink and its subject logged. LONGHAUL_ALERT_SINK=0 leaves it out (a site with
# its own smarthost).
# shellcheck shell=bash

sink_run()  { echo "${RUN_ROOT}/sink"; }
procs_sink() { [ "${LONGHAUL_ALERT_SINK}" = 1 ] && echo sink; }
ports_sink() { echo "${LONGHAUL_SINK_SMTP_PORT} ${LONGHAUL_SINK_HTTP_PORT}"; }
logs_sink()  { echo "$(sink_run)/sink.log"; }
install_sink() {
  [ "${LONGHAUL_ALERT_SINK}" != 1 ] || "${LONGHAUL_ROOT}/.venv/bin/python" -c 'import aiosmtpd' 2>/dev/null \
    || die "the notification sink needs aiosmtpd in .venv (make prereqs)"
}
configure_sink() { mkdir -p "$(sink_run)"; }

start_sink() {
  [ "${LONGHAUL_ALERT_SINK}" = 1 ] || return 0
  SUP_PRIORITY=20 start_daemon sink "$(logs_sink)" "${LONGHAUL_ROOT}/.venv/bin/python" -u \
    "${LONGHAUL_ROOT}/alerting/sink/notify_sink.py" --dir "$(sink_run)" \
    --smtp-port "${LONGHAUL_SINK_SMTP_PORT}" --http-port "${LONGHAUL_SINK_HTTP_PORT}"
}

health_sink() {
  [ "${LONGHAUL_ALERT_SINK}" = 1 ] || return 0
  svc_pid sink >/dev/null && port_open "${LONGHAUL_SINK_SMTP_PORT}" && http_get "http://127.0.0.1:${LONGHAUL_SINK_HTTP_PORT}/" >/dev/null
}

stop_sink() { stop_daemon sink; }
