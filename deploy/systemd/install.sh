#!/usr/bin/env bash
# Install Longhaul under systemd on a real host, from a checkout where `make build` ran
# (deploy/systemd/README.md). As root:
#   install.sh files [--agent] [--destdir DIR]  Longhaul's programs into /usr/bin and /usr/share/longhaul
#                                               (where its packages put them), the services' into
#                                               /opt/longhaul, units into /etc/systemd/system
#   install.sh central                          the central host's users, folders, secrets and configs
#   install.sh setup                            once Kafka and InfluxDB run: InfluxDB's admin, then
#                                               `longhaul setup` (topics, users, ACLs, database)
#   install.sh agent                            a sender host's agent user and config
# The configs are those scripts/stack writes for `make up` (its configure_* functions, same
# defaults.env), with the stack's folders moved: configs in /etc/longhaul/<service>, data in
# /var/lib/longhaul/<service>, secrets in /etc/longhaul/secrets. An existing config is never
# overwritten. Kafka, Flink, InfluxDB, Telegraf and Alertmanager come from the stack's cache
# (LONGHAUL_STACK_CACHE, ~/.cache/longhaul/stack): `install.sh fetch` downloads and builds whatever of them is missing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
UNITS="${ROOT}/deploy/systemd"
: "${LONGHAUL_BIN:=${ROOT}/bin}"   # what `make build` wrote
# the third-party services under PREFIX; Longhaul's own files where its packages put them
PREFIX=/opt/longhaul ETC=/etc/longhaul STATE=/var/lib/longhaul BINDIR=/usr/bin SHARE=/usr/share/longhaul
# The stack's settings as a real host has them (lib.sh derives the rest from these).
export LONGHAUL_SECRETS_DIR="${ETC}/secrets" LONGHAUL_FLINK_STATE_DIR="${STATE}/flink"
# A real host runs no notification sink (scripts/stack/sink.sh is the demo and test stacks'):
# Alertmanager mails through the host's own MTA and posts to webhooks where nothing listens until
# the site names its own (LONGHAUL_ALERT_* given to `install.sh central`, or edit
# /etc/longhaul/alertmanager/alertmanager.yml afterwards).
export LONGHAUL_ALERT_SINK=0 LONGHAUL_ALERT_SMTP="${LONGHAUL_ALERT_SMTP:-localhost:25}" \
  LONGHAUL_ALERT_WEBHOOK_URL="${LONGHAUL_ALERT_WEBHOOK_URL:-http://127.0.0.1:9/alertmanager}" \
  LONGHAUL_ALERT_HEARTBEAT_URL="${LONGHAUL_ALERT_HEARTBEAT_URL:-http://127.0.0.1:9/heartbeat}"
# shellcheck source=../../scripts/stack/lib.sh
. "${ROOT}/scripts/stack/lib.sh"
LOG_TAG=install
load_services
# the secrets folder: root's alone, every file in it 0600 but the CA's certificate (public), which
# the daemons read by its path: so the folder may be passed through, not listed (lib.sh's own is 0700)
secrets_dir() {
  mkdir -p "${LONGHAUL_SECRETS_DIR}" && chmod 0711 "${LONGHAUL_SECRETS_DIR}" && echo "${LONGHAUL_SECRETS_DIR}"
}

# One system user per service, each unit's User= (test_systemd_install checks they agree). The
# job keeper is Flink's: it submits Flink's job and prunes Flink's checkpoints.
SERVICE_USERS=(longhaul-kafka longhaul-flink longhaul-influxdb longhaul-telegraf longhaul-alertmanager
  longhaul-watchdog longhaul-bridge)

# to_credentials UNIT CONFIG NAME...: the secrets NAME... as CONFIG names them become UNIT's
# credentials: systemd copies each file a unit's LoadCredential= names into /run/credentials/UNIT,
# readable by that unit's user alone. Run on an existing config too: an upgrade from the release
# whose daemons shared one user and read the folder keeps working.
to_credentials() {
  local unit="$1" conf="$2" name
  shift 2
  for name in "$@"; do
    sed -i "s#${LONGHAUL_SECRETS_DIR}/${name}#/run/credentials/${unit}/${name}#g" "${conf}"
  done
}

# copy_tree SRC DST: DST becomes a copy of SRC, swapped in whole (a running JVM keeps its jars).
copy_tree() {
  rm -rf "$2.new" && mkdir -p "$(dirname "$2")" && cp -a "$1" "$2.new"
  rm -rf "$2.old" && { [ ! -e "$2" ] || mv "$2" "$2.old"; } && mv "$2.new" "$2" && rm -rf "$2.old"
}

need() { [ -e "$1" ] || die "$1 is missing ($2)"; }

files() {
  local agent=0 dest="" p
  while [ $# -gt 0 ]; do
    case "$1" in
      --agent) agent=1 ;;
      --destdir) dest="$2"; shift ;;
      *) die "files: unknown argument $1" ;;
    esac
    shift
  done
  p="${dest}${PREFIX}"
  need "${LONGHAUL_BIN}/longhaul-probe" "make build"
  install -d "${dest}${BINDIR}" "${dest}/etc/systemd/system"
  # the binaries carry the contract (schemas, topics, retention) embedded
  install -m 0755 "${LONGHAUL_BIN}/longhaul-probe" "${dest}${BINDIR}/"
  install -m 0644 "${UNITS}/longhaul-probe.service" "${UNITS}/longhaul-psbridge.service" "${dest}/etc/systemd/system/"
  [ "$agent" = 1 ] && return 0
  need "${LONGHAUL_BIN}/longhaul" "make build"
  need "${LONGHAUL_BIN}/longhaul-flink.jar" "make build"
  need "$(kafka_home)/libs" "install.sh fetch"
  need "$(flink_home)/bin/jobmanager.sh" "install.sh fetch"
  need "$(influxdb_home)/influxd" "install.sh fetch"
  need "$(telegraf_home)/telegraf" "install.sh fetch"
  need "$(alertmanager_home)/alertmanager" "install.sh fetch"
  install -d "$p/bin" "${dest}${SHARE}"
  install -m 0755 "${LONGHAUL_BIN}/longhaul" "${dest}${BINDIR}/"
  install -m 0755 "$(influxdb_home)/influxd" "$(telegraf_home)/telegraf" "$(alertmanager_home)/alertmanager" "$p/bin/"
  # where the longhaul package puts them: the job keeper's default jar (LONGHAUL_FLINK_JAR)
  install -m 0644 "${LONGHAUL_BIN}/longhaul-flink.jar" "${dest}${SHARE}/"
  # Telegraf's configuration (longhaul-telegraf.service reads it here)
  install -d "$p/ingest/telegraf"
  install -m 0644 "${ROOT}/ingest/telegraf/telegraf.conf" "$p/ingest/telegraf/"
  copy_tree "${ROOT}/dashboards/json" "${dest}${SHARE}/dashboards"
  # Alertmanager's notification templates (the config `central` generates names this folder)
  copy_tree "${ROOT}/alerting/templates" "${dest}${SHARE}/alerting/templates"
  copy_tree "$(kafka_home)/libs" "$p/kafka/libs"
  copy_tree "$(flink_home)" "$p/flink"
  install -m 0644 "${UNITS}"/*.service "${UNITS}"/*.socket "${UNITS}"/*.target "${dest}/etc/systemd/system/"
  log "installed into ${dest:-/} (now: systemctl daemon-reload)"
}

fetch() {
  local svc
  for svc in kafka flink influxdb telegraf alertmanager; do "install_${svc}"; done
}

add_user() {
  id -u "$1" >/dev/null 2>&1 ||
    useradd --system --user-group --home-dir "$2" --no-create-home --shell /usr/sbin/nologin "$1"
}

# generate SVC FILE...: run the stack's configure_SVC into STATE/SVC and move its config FILEs
# (globs under that folder) into ETC/SVC; nothing when ETC/SVC exists already.
generate() {
  local svc="$1" f
  shift
  if [ -d "${ETC}/${svc}" ]; then
    log "${ETC}/${svc} exists: left as it is"
    return 0
  fi
  "configure_${svc}"
  install -d -m 0755 "${ETC}/${svc}"
  # shellcheck disable=SC2086  # each name may be a glob ('conf/*'), expanded here
  for f in "$@"; do mv "${STATE}/${svc}"/$f "${ETC}/${svc}/"; done
  log "wrote ${ETC}/${svc} (what scripts/stack/${svc}.sh writes for make up)"
}

# The settings every central unit reads (EnvironmentFile=): where the services are, never who
# a program is (a unit says that) nor a secret.
write_env() {
  [ -e "${ETC}/longhaul.env" ] && return 0
  {
    echo "# generated by deploy/systemd/install.sh from scripts/stack/defaults.env; yours to edit"
    for v in LONGHAUL_KAFKA LONGHAUL_KAFKA_ADMIN LONGHAUL_KAFKA_SECURITY LONGHAUL_KAFKA_CA LONGHAUL_INFLUX \
      LONGHAUL_INFLUX_DB LONGHAUL_INFLUX_CA LONGHAUL_FLINK LONGHAUL_SECRETS_DIR LONGHAUL_FLINK_STATE_DIR \
      LONGHAUL_TELEGRAF_HEALTH_PORT LONGHAUL_ALERTMANAGER LONGHAUL_ALERTMANAGER_CA; do
      echo "$v=${!v}"
    done
  } >"${ETC}/longhaul.env"
}

# flink_rest_upgrade: Flink's REST certificate made when missing; a config of a release before 0.9,
# whose REST API took any local client, gets
# the mutual TLS the stack's configure_flink writes (scripts/stack/flink.sh), and longhaul.env its
# https URL; a config that says something of REST TLS already is left alone.
flink_rest_upgrade() {
  flink_rest_tls || return 0
  ensure_rest_cert # again after its files were deleted to renew it (docs/security.md)
  grep -q 'ssl:' "${ETC}/flink/config.yaml" && return 0
  flink_rest_ssl_conf >>"${ETC}/flink/config.yaml"
  [ ! -e "${ETC}/longhaul.env" ] || sed -i 's#^LONGHAUL_FLINK=http://#LONGHAUL_FLINK=https://#' "${ETC}/longhaul.env"
  log "${ETC}/flink/config.yaml: Flink's REST API now admits only secrets/flink-rest.pem (mutual TLS)"
}

# flink_internal_upgrade: a config of 0.9.0 or earlier, whose internal connections (RPC, blob
# server, data shuffle) took any local client, gets the mutual TLS the stack's configure_flink
# writes (scripts/stack/flink.sh); one that says something of it is left alone.
flink_internal_upgrade() {
  grep -q 'ssl.internal\|^    internal:' "${ETC}/flink/config.yaml" && return 0
  flink_internal_ssl_conf >>"${ETC}/flink/config.yaml"
  log "${ETC}/flink/config.yaml: Flink's internal connections now admit only secrets/flink-internal.p12 (mutual TLS)"
}

central() {
  use_jdk17
  local u
  for u in "${SERVICE_USERS[@]}"; do add_user "$u" "${STATE}"; done
  install -d -m 0755 "${ETC}" "${STATE}"
  install -d -o root -g root -m 0711 "${LONGHAUL_SECRETS_DIR}"
  # the stack's run folders become the services' state folders
  RUN_ROOT="${STATE}"
  # lib.sh's functions that generate the configs call these two and read LONGHAUL_CLI
  # shellcheck disable=SC2317  # called by the sourced generators
  kafka_home() { echo "${PREFIX}/kafka"; }
  # shellcheck disable=SC2317  # the same
  flink_home() { echo "${PREFIX}/flink"; }
  # shellcheck disable=SC2034  # read by the sourced alertmanager generator: it writes web.yml
  LONGHAUL_CLI="${BINDIR}/longhaul"
  generate kafka server.properties log4j2.properties
  # server.log into the unit's LogsDirectory
  sed -i "s#${STATE}/kafka/logs/#/var/log/longhaul/kafka/#" "${ETC}/kafka/log4j2.properties"
  rm -rf "${STATE}/kafka/logs"
  # FLINK_CONF_DIR: config.yaml and the distribution's logging configs
  generate flink 'conf/*'
  rm -rf "${STATE}/flink/conf" "${STATE}/flink/log"
  flink_rest_upgrade
  flink_internal_upgrade
  generate influxdb influxdb.conf
  # alertmanager.yml (where it delivers) and web.yml (TLS and its users' bcrypt hashes), with the
  # alertmanager certificate and its users' passwords; the templates as `files` installed them
  generate alertmanager alertmanager.yml web.yml
  sed -i "s#${LONGHAUL_ROOT}/alerting/templates#${SHARE}/alerting/templates#" "${ETC}/alertmanager/alertmanager.yml"
  to_credentials longhaul-kafka.service "${ETC}/kafka/server.properties" broker.pem
  to_credentials longhaul-flink-jobmanager.service "${ETC}/flink/config.yaml" flink-rest.p12 flink-internal.p12
  to_credentials longhaul-influxdb.service "${ETC}/influxdb/influxdb.conf" influxdb.pem
  to_credentials longhaul-alertmanager.service "${ETC}/alertmanager/web.yml" alertmanager.crt alertmanager.key
  chgrp longhaul-alertmanager "${ETC}/alertmanager/web.yml" && chmod 0640 "${ETC}/alertmanager/web.yml"
  # the services' users (up.sh's run_setup makes the same)
  for u in kafka-flink kafka-telegraf kafka-operator kafka-watchdog kafka-alerter influx-writer influx-reader; do
    ensure_secret "$u.password" >/dev/null
  done
  write_env
  [ -e "${ETC}/job.args" ] || echo "# the job's arguments (flink-jobs/README.md), one or more per line" >"${ETC}/job.args"
  # the job's Kafka identity: a bare name is the credential the Flink units load (a path of the
  # secrets folder, which `longhaul job` would give otherwise, is root's alone)
  grep -q -- '--kafka-password-file' "${ETC}/job.args" ||
    printf '%s\n' "# the job's Kafka user; its password is the Flink units' credential of that name" \
      "--kafka-user flink --kafka-password-file kafka-flink.password" >>"${ETC}/job.args"
  chown -R longhaul-kafka:longhaul-kafka "${STATE}/kafka"
  chown -R longhaul-flink:longhaul-flink "${STATE}/flink"
  chown -R longhaul-influxdb:longhaul-influxdb "${STATE}/influxdb"
  chown -R longhaul-alertmanager:longhaul-alertmanager "${STATE}/alertmanager"
  # every secret root's alone (a unit gets the ones it names as credentials), the CA's certificate
  # everyone's; a folder of the release before had the daemons' shared group on some
  (cd "${LONGHAUL_SECRETS_DIR}" && chown root:root ./* && chmod 0600 ./* && chmod 0644 ca.crt)
  log "central host ready; edit ${ETC}/kafka/server.properties (listeners) for remote agents, then: install.sh setup"
}

# influxdb_running: its unit is active with a main process (whose network namespace is InfluxDB's).
influxdb_running() { [ "$(systemctl show -p MainPID --value longhaul-influxdb)" -gt 0 ] 2>/dev/null; }

# setup: InfluxDB's admin (the one statement a fresh auth-enabled InfluxDB takes without a user,
# as scripts/stack/influxdb.sh makes it), then `longhaul setup` as up.sh runs it.
setup() {
  RUN_ROOT="${STATE}"
  # lib.sh's wait_for and bootstrap_influxdb_admin call these
  # shellcheck disable=SC2317  # called by the sourced wait_for
  svc_given_up() { ! systemctl is-active --quiet "longhaul-$1"; }
  # shellcheck disable=SC2317  # called by the sourced bootstrap_influxdb_admin
  influxdb_log() { echo "(journalctl -u longhaul-influxdb)"; }
  # InfluxDB runs in a network namespace of its own (PrivateNetwork=): the admin is made from
  # inside it, before longhaul-influxdb-http.socket opens the host's port (its condition is the
  # admin's marker), so no local user can race for it
  # shellcheck disable=SC2317  # called by the sourced bootstrap_influxdb_admin
  influxdb_in_ns() { nsenter -t "$(systemctl show -p MainPID --value longhaul-influxdb)" -n "$@"; }
  wait_for "${LONGHAUL_START_TIMEOUT}" influxdb_running || die "InfluxDB not running (journalctl -u longhaul-influxdb)"
  [ -f "${STATE}/influxdb/meta/longhaul-admin" ] || bootstrap_influxdb_admin
  systemctl start longhaul-influxdb-http.socket
  wait_for "${LONGHAUL_START_TIMEOUT}" health_kafka || die "Kafka not healthy (journalctl -u longhaul-kafka)"
  LONGHAUL_INFLUX_USER=admin LONGHAUL_INFLUX_PASSWORD_FILE="${LONGHAUL_SECRETS_DIR}/influx-admin.password" \
    "${BINDIR}/longhaul" setup --users-from "${LONGHAUL_SECRETS_DIR}"
}

agent() {
  add_user longhaul-probe "${STATE}/spool"
  install -d -m 0755 "${ETC}"
  if [ ! -e "${ETC}/longhaul-probe.yaml" ]; then
    "${BINDIR}/longhaul-probe" config sample >"${ETC}/longhaul-probe.yaml"
    log "wrote ${ETC}/longhaul-probe.yaml: set src, kafka and the probes (collectors/README.md)"
  fi
}

case "${1:-}" in
  files | fetch | central | setup | agent) cmd="$1"; shift; "$cmd" "$@" ;;
  *) sed -n '2,13p' "${BASH_SOURCE[0]}" >&2; exit 2 ;;
esac
