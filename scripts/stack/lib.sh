# Shared helpers for the native stack scripts. Source it; it defines functions and loads defaults.env.
# shellcheck shell=bash

LONGHAUL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STACK_SCRIPTS="${LONGHAUL_ROOT}/scripts/stack"
set -a
# shellcheck source=defaults.env
. "${STACK_SCRIPTS}/defaults.env"
set +a
# shellcheck disable=SC2034  # used by the service files sourced later
CACHE_DIR="${LONGHAUL_STACK_CACHE}"
RUN_ROOT="${LONGHAUL_STACK_DIR}/run"

log()  { printf '%s [%s] %s\n' "$(date +%H:%M:%S)" "${LOG_TAG:-stack}" "$*" >&2; }
warn() { log "WARN: $*"; }
die()  { log "ERROR: $*"; exit 1; }

now_ms() { date +%s%3N; }
# Seconds with one decimal between two now_ms stamps.
elapsed_s() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1000 }'; }

# --- toolchains --------------------------------------------------------------------------------

# Point LONGHAUL_JAVA_HOME at a JDK 17: the configured one, else any /usr/lib/jvm/*17*. Flink's
# scripts break on JDK 24+ (see stack-recipes.md). Fails quietly; use_jdk17 dies instead.
detect_jdk17() {
  local home
  for home in "${LONGHAUL_JAVA_HOME}" /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/*17*; do
    if [ -x "$home/bin/java" ] && "$home/bin/java" -version 2>&1 | grep -q 'version "17\.'; then
      LONGHAUL_JAVA_HOME="$home"
      return 0
    fi
  done
  return 1
}

# Export JAVA_HOME and JAVA (the java binary) for JDK 17, or die.
use_jdk17() {
  detect_jdk17 || die "no JDK 17 found (set LONGHAUL_JAVA_HOME; apt-get install openjdk-17-jdk-headless)"
  export JAVA_HOME="${LONGHAUL_JAVA_HOME}" JAVA="${LONGHAUL_JAVA_HOME}/bin/java"
}

# Print the go binary to use.
go_bin() {
  if [ -n "${LONGHAUL_GO}" ]; then echo "${LONGHAUL_GO}"
  elif command -v go >/dev/null 2>&1; then command -v go
  elif [ -x /usr/local/go/bin/go ]; then echo /usr/local/go/bin/go
  else die "go not found (set LONGHAUL_GO)"; fi
}

# --- run directories, PID files, processes ----------------------------------------------------

# instance_suffix I: how instance I of a program set is named after the first, which has none
# (kafka, kafka-2, kafka-3; flink/taskmanager, flink/taskmanager-2)
instance_suffix() { [ "$1" = 1 ] || echo "-$1"; }

run_dir() { mkdir -p "${RUN_ROOT}/$1" && echo "${RUN_ROOT}/$1"; }

# True if PID $1 is alive and was started from this stack (its command line mentions its run folder;
# the cache may be shared with other stacks),
# so a recycled PID is never mistaken for ours.
pid_is_ours() {
  local pid="$1"
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "${LONGHAUL_STACK_DIR}/run/"
}

# Processes: start_daemon, stop_daemon, svc_pid, svc_state, svc_restarts (under supervisord).
# shellcheck source=supervise.sh
. "${STACK_SCRIPTS}/supervise.sh"

# Resident memory of PID $1 in MB (integer), or "-".
rss_mb() {
  awk '/^VmRSS:/ { printf "%d", $2 / 1024; found = 1 } END { if (!found) printf "-" }' \
    "/proc/$1/status" 2>/dev/null || echo "-"
}

# --- health ------------------------------------------------------------------------------------

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

http_get() { curl -fsS --max-time 3 "$@"; }

# wait_for TIMEOUT_S FUNC [ARGS...]: poll FUNC once a second until it succeeds or TIMEOUT_S passes.
# WAIT_PID_OF may list process names (see supervise.sh): give up as soon as supervisord has given
# up on one of them.
wait_for() {
  local timeout="$1" deadline name
  shift
  deadline=$(($(date +%s) + timeout))
  while :; do
    "$@" >/dev/null 2>&1 && return 0
    for name in ${WAIT_PID_OF:-}; do
      if svc_given_up "$name"; then
        log "${name} exited while starting ($(svc_state "$name"))"
        return 1
      fi
    done
    [ "$(date +%s)" -ge "$deadline" ] && return 1
    sleep 1
  done
}

# show_log FILE [N]: print the last N (default 40) lines of a service log to stderr.
show_log() {
  local file="$1" n="${2:-40}"
  if [ -s "$file" ]; then
    printf -- '----- last %s lines of %s -----\n' "$n" "$file" >&2
    tail -n "$n" "$file" >&2
    printf -- '-----\n' >&2
  else
    log "(${file} is missing or empty)"
  fi
}

# --- secrets -----------------------------------------------------------------------------------
# Everything secret lives in LONGHAUL_SECRETS_DIR (0700), one file each (0600, no trailing
# newline), created on first use and never printed: clients read the files (never a command line,
# never a YAML file). docs/security.md says what each one is.

secrets_dir() {
  mkdir -p "${LONGHAUL_SECRETS_DIR}" && chmod 0700 "${LONGHAUL_SECRETS_DIR}" && echo "${LONGHAUL_SECRETS_DIR}"
}

# ensure_secret NAME: path of secrets/NAME, a random password (32 characters) made the first time.
ensure_secret() {
  local f
  f="$(secrets_dir)/$1"
  if [ ! -s "$f" ]; then
    (umask 077 && openssl rand -base64 48 | tr -dc 'A-Za-z0-9' | head -c 32 >"$f") || die "cannot write secret $1"
  fi
  chmod 0600 "$f"
  echo "$f"
}

# ensure_ca: the stack's private CA (ca.crt, ca.key), made the first time; real deployments
# bring their own (docs/security.md).
ensure_ca() {
  local d
  d="$(secrets_dir)"
  [ -s "$d/ca.crt" ] && [ -s "$d/ca.key" ] && return 0
  (umask 077 && openssl req -x509 -newkey rsa:2048 -nodes -keyout "$d/ca.key" -out "$d/ca.crt" -days 3650 \
    -subj "/O=Longhaul/CN=Longhaul private CA" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign) >/dev/null 2>&1 \
    || die "openssl could not make the CA in $d"
  chmod 0644 "$d/ca.crt"
  log "made a private CA: $d/ca.crt"
}

# ensure_cert NAME: secrets/NAME.pem (key then certificate, PEM, unencrypted PKCS#8), signed by the
# CA for 127.0.0.1 and localhost, made the first time. The CN is last in the subject so Kafka's
# principal mapping reads it (see security-recipes).
ensure_cert() {
  local d name="$1"
  d="$(secrets_dir)"
  [ -s "$d/$name.pem" ] && return 0
  ensure_ca
  (
    umask 077
    openssl req -newkey rsa:2048 -nodes -keyout "$d/$name.key" -out "$d/$name.csr" -subj "/O=Longhaul/CN=$name" &&
      printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n' >"$d/$name.ext" &&
      openssl x509 -req -in "$d/$name.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial -days 825 \
        -out "$d/$name.crt" -extfile "$d/$name.ext" &&
      cat "$d/$name.key" "$d/$name.crt" >"$d/$name.pem"
  ) >/dev/null 2>&1 || die "openssl could not make the certificate $name"
  rm -f "$d/$name.csr" "$d/$name.ext"
}

# The services, in start order (down stops them in reverse): each scripts/stack/<svc>.sh defines
# install_/configure_/start_/health_/stop_/procs_/ports_/logs_<svc>.
STACK_SERVICES="kafka influxdb zookeeper flink telegraf sink alertmanager bridge job watchdog"

# Load every service definition (install_/configure_/start_/health_/stop_ functions).
load_services() {
  local svc
  for svc in ${STACK_SERVICES}; do
    # shellcheck source=/dev/null
    . "${STACK_SCRIPTS}/${svc}.sh"
  done
}

# Callers that only read LONGHAUL_JAVA_HOME (e.g. scripts/test-all.sh) get a JDK 17 too.
[ -x "${LONGHAUL_JAVA_HOME}/bin/java" ] || detect_jdk17 || true
