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

# Telegraf's InfluxDB identity: the writer user (WRITE only, longhaul setup --users-from makes it).
: "${LONGHAUL_TELEGRAF_INFLUX_USER:=writer}"
: "${LONGHAUL_TELEGRAF_INFLUX_PASSWORD_FILE:=${LONGHAUL_SECRETS_DIR}/influx-writer.password}"

# The variables telegraf.conf refers to, but the passwords; exported so ${VAR} substitution sees
# them. Kafka: the telegraf user over TLS + SCRAM-SHA-512 (all empty in plaintext mode). InfluxDB:
# the writer, over https trusting the stack's CA when LONGHAUL_INFLUX is https. The passwords are
# read from their secret files into Telegraf's environment only (start_telegraf), never into a
# file or onto a command line.
telegraf_env() {
  export LONGHAUL_KAFKA LONGHAUL_INFLUX LONGHAUL_INFLUX_DB LONGHAUL_TELEGRAF_HEALTH_PORT
  LONGHAUL_TELEGRAF_KAFKA_CA="" LONGHAUL_TELEGRAF_KAFKA_MECHANISM="" LONGHAUL_TELEGRAF_KAFKA_USER=""
  if [ "${LONGHAUL_KAFKA_SECURITY}" != plaintext ]; then
    LONGHAUL_TELEGRAF_KAFKA_CA="${LONGHAUL_KAFKA_CA}" LONGHAUL_TELEGRAF_KAFKA_MECHANISM=SCRAM-SHA-512
    LONGHAUL_TELEGRAF_KAFKA_USER=telegraf
  fi
  export LONGHAUL_TELEGRAF_KAFKA_CA LONGHAUL_TELEGRAF_KAFKA_MECHANISM LONGHAUL_TELEGRAF_KAFKA_USER
  LONGHAUL_INFLUX_CA="${LONGHAUL_INFLUX_CA:-}"
  case "${LONGHAUL_INFLUX}" in https://*) LONGHAUL_INFLUX_CA="${LONGHAUL_INFLUX_CA:-${LONGHAUL_SECRETS_DIR}/ca.crt}" ;; esac
  export LONGHAUL_INFLUX_CA
}

# check_telegraf_writer: Telegraf's InfluxDB user may write to the database, asked with an empty
# write (authorized like a real one, stores nothing). Dies with InfluxDB's answer otherwise: a
# Telegraf with a refused credential would only retry and hold its backlog in Kafka.
check_telegraf_writer() {
  local file="${LONGHAUL_TELEGRAF_INFLUX_PASSWORD_FILE}" user="${LONGHAUL_TELEGRAF_INFLUX_USER}" tls=() answer code
  [ -s "$file" ] || die "Telegraf's InfluxDB password file ${file} is missing or empty (longhaul setup --users-from creates user ${user} from it)"
  case "${LONGHAUL_INFLUX}" in https://*) tls=(--cacert "${LONGHAUL_INFLUX_CA:-${LONGHAUL_SECRETS_DIR}/ca.crt}") ;; esac
  answer="$(curl -sS --max-time 10 "${tls[@]}" -o - -w '\n%{http_code}' -XPOST --data-binary '' \
    -K <(printf 'user = "%s:%s"\n' "$user" "$(sed 's/[\\"]/\\&/g' "$file")") \
    "${LONGHAUL_INFLUX}/write?db=${LONGHAUL_INFLUX_DB}")" || die "Telegraf's check: InfluxDB ${LONGHAUL_INFLUX} does not answer"
  code="${answer##*$'\n'}"
  answer="${answer%$'\n'*}"
  answer="${answer%$'\n'}"   # InfluxDB ends its JSON with a newline
  case "$code" in
    204) return 0 ;;
    401) die "InfluxDB refused Telegraf's user ${user} (HTTP 401 ${answer}): its password is not the one in ${file}; run longhaul setup --users-from to set it, or fix the file" ;;
    403) die "InfluxDB refused Telegraf's user ${user} (HTTP 403 ${answer}): it may not write to ${LONGHAUL_INFLUX_DB}; longhaul setup grants it WRITE" ;;
    404) die "InfluxDB has no database ${LONGHAUL_INFLUX_DB} (HTTP 404 ${answer}): run longhaul setup first" ;;
    *) die "Telegraf's check: InfluxDB answered HTTP ${code} ${answer} to an empty write as ${user}" ;;
  esac
}

# telegraf_conf_for_brokers: the lead's config with each consumer's one bootstrap entry
# ["${LONGHAUL_KAFKA}"] made a list of LONGHAUL_KAFKA's brokers, in run/telegraf: the Kafka
# plugin takes a list of seeds, not a comma-separated one, and Telegraf's (strict) environment
# substitution fills strings only. With one broker the lead's file is used as it is.
telegraf_conf_for_brokers() {
  # shellcheck disable=SC2016  # the literal ${LONGHAUL_KAFKA} of telegraf.conf, replaced below
  local out list entry='["${LONGHAUL_KAFKA}"]'
  out="$(run_dir telegraf)/telegraf.conf"
  list="[\"${LONGHAUL_KAFKA//,/\", \"}\"]"
  awk -v entry="$entry" -v list="$list" '{ i = index($0, entry); if (i) { $0 = substr($0, 1, i - 1) list substr($0, i + length(entry)); n++ } print }
    END { if (!n) exit 1 }' "${LONGHAUL_TELEGRAF_CONF}" >"$out" \
    || die "${LONGHAUL_TELEGRAF_CONF} has no brokers = ${entry} to give the ${LONGHAUL_KAFKA_BROKERS_N} brokers"
  echo "$out"
}

start_telegraf() {
  local kafka_pw=/dev/null
  telegraf_env
  check_telegraf_writer
  [ "${LONGHAUL_KAFKA_SECURITY}" = plaintext ] || kafka_pw="$(ensure_secret kafka-telegraf.password)"
  # The passwords reach Telegraf's environment only: its launcher reads the files as it starts.
  (
    case "${LONGHAUL_KAFKA}" in *,*) LONGHAUL_TELEGRAF_CONF="$(telegraf_conf_for_brokers)" ;; esac
    export LONGHAUL_INFLUX_USER="${LONGHAUL_TELEGRAF_INFLUX_USER}"
    SECRET_ENV="LONGHAUL_INFLUX_PASSWORD=${LONGHAUL_TELEGRAF_INFLUX_PASSWORD_FILE} LONGHAUL_TELEGRAF_KAFKA_PASSWORD=${kafka_pw}" \
      SUP_PRIORITY=30 start_daemon telegraf "$(telegraf_log)" "$(telegraf_home)/telegraf" --config "${LONGHAUL_TELEGRAF_CONF}"
  )
}

# Healthy = our process is alive AND the outputs.health listener answers 200.
health_telegraf() {
  svc_pid telegraf >/dev/null || return 1
  [ "$(curl -s -o /dev/null --max-time 3 -w '%{http_code}' \
    "http://127.0.0.1:${LONGHAUL_TELEGRAF_HEALTH_PORT}/")" = 200 ]
}

stop_telegraf() { stop_daemon telegraf; }
