# Prometheus Alertmanager: routes, groups, inhibits, silences and delivers the alerts the bridge
# posts (alerting/alertmanager.yml). HTTPS with the stack's CA and basic auth, on 127.0.0.1, no
# cluster port; its silences and notification log live in run/alertmanager/data across restarts.
# shellcheck shell=bash

alertmanager_home() { echo "${CACHE_DIR}/alertmanager-${LONGHAUL_ALERTMANAGER_VERSION}"; }
alertmanager_run()  { echo "${RUN_ROOT}/alertmanager"; }
procs_alertmanager() { echo alertmanager; }
ports_alertmanager() { echo "${LONGHAUL_ALERTMANAGER_PORT}"; }
logs_alertmanager()  { echo "$(alertmanager_run)/alertmanager.log"; }

install_alertmanager() {
  local home go
  home="$(alertmanager_home)"
  [ -x "$home/alertmanager" ] && return 0
  go="$(go_bin)"
  log "building alertmanager ${LONGHAUL_ALERTMANAGER_VERSION} into ${home} (1-2 min cold)"
  mkdir -p "$home"
  (cd "$home" && GOBIN="$home" GOFLAGS=-mod=mod "$go" install \
    "github.com/prometheus/alertmanager/cmd/alertmanager@v${LONGHAUL_ALERTMANAGER_VERSION}") \
    || die "go install alertmanager@v${LONGHAUL_ALERTMANAGER_VERSION} failed"
}

# render_alertmanager_config OUT: alerting/alertmanager.yml with the stack's values: every
# ${LONGHAUL_ALERT_*} placeholder filled from the LONGHAUL_ALERT_* settings (defaults.env), by the
# one renderer compose and Kubernetes run too (compose/alertmanager/render.sh), which refuses a
# placeholder without a value; the templates are the checkout's.
render_alertmanager_config() {
  local v
  for v in $(compgen -v LONGHAUL_ALERT_); do export "${v?}"; done
  LONGHAUL_ALERT_TEMPLATES="${LONGHAUL_ROOT}/alerting/templates" \
    sh "${LONGHAUL_ROOT}/compose/alertmanager/render.sh" "${LONGHAUL_ROOT}/alerting/alertmanager.yml" "$1"
}

configure_alertmanager() {
  local run d u
  run="$(run_dir alertmanager)"
  mkdir -p "$run/data"
  render_alertmanager_config "$run/alertmanager.yml" || die "cannot write $run/alertmanager.yml"
  ensure_cert alertmanager
  d="$(secrets_dir)"
  for u in bridge operator grafana; do ensure_secret "alertmanager-$u.password" >/dev/null; done
  "${LONGHAUL_CLI}" alertmanager-web-config --secrets-dir "$d" --cert "$d/alertmanager.crt" --key "$d/alertmanager.key" \
    -o "$run/web.yml" || die "cannot write Alertmanager's web config (build the CLI: make build-go)"
}

start_alertmanager() {
  local run
  run="$(alertmanager_run)"
  SUP_PRIORITY=30 start_daemon alertmanager "$(logs_alertmanager)" "$(alertmanager_home)/alertmanager" \
    --config.file="$run/alertmanager.yml" --web.config.file="$run/web.yml" --storage.path="$run/data" \
    --data.maintenance-interval="${LONGHAUL_ALERTMANAGER_SNAPSHOT}" \
    --web.listen-address="127.0.0.1:${LONGHAUL_ALERTMANAGER_PORT}" --cluster.listen-address= \
    --web.external-url="https://127.0.0.1:${LONGHAUL_ALERTMANAGER_PORT}"
}

# Healthy = it runs and answers /-/ready over TLS to the operator's credential.
health_alertmanager() {
  svc_pid alertmanager >/dev/null || return 1
  local pw="${LONGHAUL_SECRETS_DIR}/alertmanager-operator.password"
  [ -s "$pw" ] || return 1
  curl -fsS --max-time 3 --cacert "${LONGHAUL_SECRETS_DIR}/ca.crt" \
    -K <(printf 'user = "operator:%s"\n' "$(sed 's/[\\"]/\\&/g' "$pw")") \
    "https://127.0.0.1:${LONGHAUL_ALERTMANAGER_PORT}/-/ready" >/dev/null
}

# reload_alertmanager: a running Alertmanager re-reads its config (after configure_alertmanager
# wrote it anew); dies with Alertmanager's answer when the new config is refused (it keeps the old).
reload_alertmanager() {
  local pw="${LONGHAUL_SECRETS_DIR}/alertmanager-operator.password" answer
  answer="$(curl -sS --max-time 10 --cacert "${LONGHAUL_SECRETS_DIR}/ca.crt" -XPOST -w ' HTTP %{http_code}' \
    -K <(printf 'user = "operator:%s"\n' "$(sed 's/[\\"]/\\&/g' "$pw")") \
    "https://127.0.0.1:${LONGHAUL_ALERTMANAGER_PORT}/-/reload")" || die "alertmanager: reload failed: ${answer}"
  case "$answer" in *"HTTP 200") log "alertmanager: config reloaded" ;; *) die "alertmanager refused its new config: ${answer}" ;; esac
}

stop_alertmanager() { stop_daemon alertmanager; }
