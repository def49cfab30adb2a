# Telegraf, trimmed build (only the plugins the ingest config uses), sinking Kafka result topics
# into InfluxDB. The config is ingest/telegraf/telegraf.conf (LONGHAUL_TELEGRAF_CONF); this file only
# builds, starts and checks the agent.
# shellcheck shell=bash

# Cache key: version + a short hash of the build tags, so a different plugin set is a different build.
telegraf_home() {
  local hash
  hash="$(printf '%s' "${LONGHAUL_TELEGRAF_TAGS}" | sha256sum | cut -c1-8)"
  echo "${CACHE_DIR}/telegraf-${LONGHAUL_TELEGRAF_VERSION}-${hash}"
}
telegraf_run() { echo "${RUN_ROOT}/telegraf"; }
telegraf_log() { echo "$(telegraf_run)/telegraf.log"; }
procs_telegraf() { echo telegraf; }
ports_telegraf() { echo "${LONGHAUL_TELEGRAF_HEALTH_PORT}"; }
logs_telegraf()  { telegraf_log; }

install_telegraf() {
  local home go
  home="$(telegraf_home)"
  [ -x "$home/telegraf" ] && return 0
  go="$(go_bin)"
  log "building telegraf ${LONGHAUL_TELEGRAF_VERSION} (tags ${LONGHAUL_TELEGRAF_TAGS}) into ${home} (1-2 min cold)"
  mkdir -p "$home"
  printf '%s\n' "${LONGHAUL_TELEGRAF_TAGS}" >"$home/tags.txt"
  (cd "$home" && GOBIN="$home" "$go" install -tags "${LONGHAUL_TELEGRAF_TAGS}" \
    "github.com/influxdata/telegraf/cmd/telegraf@v${LONGHAUL_TELEGRAF_VERSION}") \
    || die "go install telegraf@v${LONGHAUL_TELEGRAF_VERSION} failed"
}

# Nothing to generate: the config is the lead's file; only check that it is there.
configure_telegraf() {
  run_dir telegraf >/dev/null
  [ -f "${LONGHAUL_TELEGRAF_CONF}" ] || die "Telegraf config ${LONGHAUL_TELEGRAF_CONF} not found"
}

# The variables telegraf.conf refers to; exported so ${VAR} substitution sees them. Kafka: the
# telegraf user over TLS + SCRAM-SHA-512, its password read from its secret file into Telegraf's
# environment only (never into a file or onto a command line); all empty in plaintext mode.
telegraf_env() {
  export LONGHAUL_KAFKA LONGHAUL_INFLUX LONGHAUL_INFLUX_DB LONGHAUL_TELEGRAF_HEALTH_PORT INFLUX_TOKEN
  LONGHAUL_TELEGRAF_KAFKA_CA="" LONGHAUL_TELEGRAF_KAFKA_MECHANISM="" LONGHAUL_TELEGRAF_KAFKA_USER="" LONGHAUL_TELEGRAF_KAFKA_PASSWORD=""
  if [ "${LONGHAUL_KAFKA_SECURITY}" != plaintext ]; then
    LONGHAUL_TELEGRAF_KAFKA_CA="${LONGHAUL_KAFKA_CA}" LONGHAUL_TELEGRAF_KAFKA_MECHANISM=SCRAM-SHA-512
    LONGHAUL_TELEGRAF_KAFKA_USER=telegraf
    LONGHAUL_TELEGRAF_KAFKA_PASSWORD="$(cat "$(ensure_secret kafka-telegraf.password)")"
  fi
  export LONGHAUL_TELEGRAF_KAFKA_CA LONGHAUL_TELEGRAF_KAFKA_MECHANISM LONGHAUL_TELEGRAF_KAFKA_USER LONGHAUL_TELEGRAF_KAFKA_PASSWORD
}

start_telegraf() {
  telegraf_env
  start_daemon telegraf "$(telegraf_log)" "$(telegraf_home)/telegraf" --config "${LONGHAUL_TELEGRAF_CONF}"
}

# Healthy = our process is alive AND the outputs.health listener answers 200.
health_telegraf() {
  svc_pid telegraf >/dev/null || return 1
  [ "$(curl -s -o /dev/null --max-time 3 -w '%{http_code}' \
    "http://127.0.0.1:${LONGHAUL_TELEGRAF_HEALTH_PORT}/")" = 200 ]
}

stop_telegraf() { stop_daemon telegraf; }
