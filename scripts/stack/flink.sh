# Flink standalone session cluster: one JobManager (two with LONGHAUL_FLINK_HA=zookeeper),
# LONGHAUL_FLINK_TASKMANAGERS TaskManagers. The distribution comes from
# the PyPI wheels apache-flink + apache-flink-libraries, which hold the whole of it under pyflink/.
# Each daemon runs in the foreground under supervisord (programs flink-jobmanager, flink-taskmanager);
# Flink's launcher also writes its own flink-longhaul-{standalonesession,taskexecutor}.pid there.
# shellcheck shell=bash

flink_cache() { echo "${CACHE_DIR}/flink-${LONGHAUL_FLINK_VERSION}"; }
flink_home()  { echo "$(flink_cache)/site/pyflink"; }
flink_run()   { echo "${RUN_ROOT}/flink"; }
# stdout/stderr of a daemon (JVM errors, System.out of jobs); $1 = jobmanager | taskmanager
flink_log()   { echo "$(flink_run)/log/$1.out"; }
# TaskManager i (1..LONGHAUL_FLINK_TASKMANAGERS) is program flink/taskmanager (i = 1) or
# flink/taskmanager-i, its RPC, data and metrics ports those of the first + (i-1) × 100.
flink_tms() { seq 1 "${LONGHAUL_FLINK_TASKMANAGERS}"; }
flink_tm() { echo "taskmanager$(instance_suffix "$1")"; }
# JobManager i: flink/jobmanager, and with LONGHAUL_FLINK_HA=zookeeper the standby
# flink/jobmanager-2, its REST, RPC, blob and metrics ports those of the first + 100.
flink_ha() { [ "${LONGHAUL_FLINK_HA}" = zookeeper ]; }
flink_jms() { if flink_ha; then seq 1 2; else echo 1; fi; }
flink_jm() { echo "jobmanager$(instance_suffix "$1")"; }
procs_flink() {
  local i
  for i in $(flink_jms); do printf 'flink/%s ' "$(flink_jm "$i")"; done
  for i in $(flink_tms); do printf 'flink/%s ' "$(flink_tm "$i")"; done
  echo
}
ports_flink() {
  local i
  for i in $(flink_jms); do printf '%s ' $((LONGHAUL_FLINK_REST_PORT + (i - 1) * 100)); done
  for i in $(flink_tms); do printf '%s ' "$(flink_tm_rpc_port "$i" | sed 's/^0$/any/')"; done
  echo
}
# flink_tm_rpc_port I: TaskManager I's RPC port: the configured one + 100 per TaskManager after the
# first, or 0 (a free port at each start, defaults.env says why)
flink_tm_rpc_port() {
  if [ "${LONGHAUL_FLINK_TM_RPC_PORT}" = 0 ]; then echo 0; else echo $((LONGHAUL_FLINK_TM_RPC_PORT + ($1 - 1) * 100)); fi
}
# Each daemon's .out, then its log4j file flink-longhaul-<standalonesession|taskexecutor>-<n>-<host>.log.
logs_flink() {
  local i
  for i in $(flink_jms); do flink_log "$(flink_jm "$i")"; done
  flink_log4j_file standalonesession "$(flink_jms | wc -l)"
  for i in $(flink_tms); do flink_log "$(flink_tm "$i")"; done
  flink_log4j_file taskexecutor "${LONGHAUL_FLINK_TASKMANAGERS}"
}
flink_log4j_file() { # DAEMON [HOW_MANY]: the newest log4j file(s) of that daemon
  # shellcheck disable=SC2012  # newest match; our paths have no spaces
  ls -t "$(flink_run)/log/flink-longhaul-$1-"*.log 2>/dev/null | head -n "${2:-1}"
}

# Flink's distribution from PyPI's wheels, each file checked against the committed hashes
# (pip --require-hashes: a file that differs, or a version nobody pinned, installs nothing)
install_flink() {
  local cache pins
  cache="$(flink_cache)"
  [ -f "$cache/.installed" ] && return 0
  pins="$(pins_file flink "${LONGHAUL_FLINK_VERSION}" txt)"
  log "installing Flink ${LONGHAUL_FLINK_VERSION} (PyPI wheels, ~310 MB) into ${cache}"
  rm -rf "$cache/site" && mkdir -p "$cache"
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --no-deps \
    --require-hashes --target "$cache/site" -r "$pins" \
    || die "pip could not install apache-flink ${LONGHAUL_FLINK_VERSION} with the hashes of ${pins#"$LONGHAUL_ROOT"/}"
  [ -x "$(flink_home)/bin/jobmanager.sh" ] || die "no bin/jobmanager.sh under $(flink_home)"
  touch "$cache/.installed"
}

# The JDK 17 module flags the distribution's own config.yaml carries (env.java.opts.all).
flink_dist_java_opts() {
  sed -n 's/^ *all: *//p' "$(flink_home)/conf/config.yaml" | head -n 1
}

# flink_ha_conf RUN: config.yaml's high-availability keys (none without LONGHAUL_FLINK_HA). The
# JobManagers elect a leader in ZooKeeper and keep each job's graph and newest checkpoint there
# and under RUN/ha, where the standby finds them when it takes over.
flink_ha_conf() {
  flink_ha || return 0
  cat <<EOF
high-availability:
  type: zookeeper
  storageDir: file://$1/ha
  cluster-id: /longhaul
  zookeeper:
    quorum: 127.0.0.1:${LONGHAUL_ZOOKEEPER_PORT}
    path:
      root: /flink
    # a killed leader's latch goes when its session expires: the standby waits this long
    # (Flink's default 60 s; a ZooKeeper on the same host needs no slack for the network)
    client:
      session-timeout: ${LONGHAUL_FLINK_HA_SESSION_TIMEOUT}
# the stack's ZooKeeper listens on 127.0.0.1 only, without SASL (a site's ensemble: docs/operations.md)
zookeeper:
  sasl:
    disable: true
EOF
}

# Flink's REST API over mutual TLS (https LONGHAUL_FLINK, the default): the JobManager presents
# flink-rest.p12 and admits only a client presenting the same certificate (lib.sh,
# ensure_rest_cert), so no local user without that file submits a job. An http:// URL turns it off.
flink_rest_tls() { [ "${LONGHAUL_FLINK#https://}" != "${LONGHAUL_FLINK}" ]; }

flink_rest_ssl_conf() {
  flink_rest_tls || return 0
  ensure_rest_cert
  local store="${LONGHAUL_SECRETS_DIR}/flink-rest.p12"
  cat <<EOF
security:
  ssl:
    rest:
      enabled: true
      authentication-enabled: true
      keystore: ${store}
      keystore-password: ${REST_STORE_PASSWORD}
      key-password: ${REST_STORE_PASSWORD}
      truststore: ${store}
      truststore-password: ${REST_STORE_PASSWORD}
EOF
}

# flink_internal_ssl_conf: Flink's internal connections (RPC between its processes, the blob server,
# the data shuffle, the metrics' query service) as mutual TLS with flink-internal.p12, whose key
# only Flink's processes hold (lib.sh, ensure_internal_cert): no other local user submits a job
# graph to the JobManager's RPC port, fetches a job's jar from the blob server or reads its records
# off the data port. Flattened keys, so deploy/systemd/install.sh can append them to a config of
# an earlier release as they are.
flink_internal_ssl_conf() {
  ensure_internal_cert
  local store="${LONGHAUL_SECRETS_DIR}/flink-internal.p12"
  cat <<EOF
security.ssl.internal.enabled: true
security.ssl.internal.keystore: ${store}
security.ssl.internal.keystore-password: ${INTERNAL_STORE_PASSWORD}
security.ssl.internal.key-password: ${INTERNAL_STORE_PASSWORD}
security.ssl.internal.truststore: ${store}
security.ssl.internal.truststore-password: ${INTERNAL_STORE_PASSWORD}
EOF
}

# flink_get PATH [PORT]: GET PATH of the REST API of the JobManager at PORT (default the first's)
flink_get() {
  local port="${2:-${LONGHAUL_FLINK_REST_PORT}}"
  if flink_rest_tls; then
    http_get --cacert "${LONGHAUL_SECRETS_DIR}/flink-rest.crt" --cert "${LONGHAUL_FLINK_CERT}" "https://127.0.0.1:${port}$1"
  else
    http_get "http://127.0.0.1:${port}$1"
  fi
}

configure_flink() {
  local run conf dist_opts
  run="$(run_dir flink)"
  conf="$run/conf"
  mkdir -p "$conf" "$run/log" "$run/tmp" "$run/checkpoints" "$run/savepoints"
  dist_opts="$(flink_dist_java_opts)"
  [ -n "$dist_opts" ] || die "env.java.opts.all not found in $(flink_home)/conf/config.yaml"
  # Logging configs from the distribution; config.yaml is ours.
  cp "$(flink_home)"/conf/log4j*.properties "$(flink_home)"/conf/logback*.xml "$conf/"
  echo "127.0.0.1:${LONGHAUL_FLINK_REST_PORT}" >"$conf/masters"
  echo "127.0.0.1" >"$conf/workers"
  cat >"$conf/config.yaml" <<EOF
# generated by scripts/stack/flink.sh from scripts/stack/defaults.env; edits are overwritten
env:
  java:
    home: ${JAVA_HOME}
    opts:
      all: ${dist_opts} -Djava.io.tmpdir=${run}/tmp -Dconsole.log.level=OFF
      taskmanager: ${LONGHAUL_FLINK_TM_JVM_OPTS}
  log:
    dir: ${run}/log
    max: 3
  pid:
    dir: ${run}
jobmanager:
  bind-host: 127.0.0.1
  rpc:
    address: 127.0.0.1
    port: ${LONGHAUL_FLINK_RPC_PORT}
  memory:
    process:
      size: ${LONGHAUL_FLINK_JM_PROCESS_SIZE}
  execution:
    failover-strategy: region
taskmanager:
  bind-host: 127.0.0.1
  host: 127.0.0.1
  rpc:
    port: ${LONGHAUL_FLINK_TM_RPC_PORT}
  data:
    port: ${LONGHAUL_FLINK_DATA_PORT}
  numberOfTaskSlots: ${LONGHAUL_FLINK_TASK_SLOTS}
  memory:
    process:
      size: ${LONGHAUL_FLINK_TM_PROCESS_SIZE}
    managed:
      fraction: ${LONGHAUL_FLINK_TM_MANAGED_FRACTION}
blob:
  server:
    port: ${LONGHAUL_FLINK_BLOB_PORT}
metrics:
  internal:
    query-service:
      port: "${LONGHAUL_FLINK_METRICS_PORTS}"
rest:
  address: 127.0.0.1
  bind-address: 127.0.0.1
  port: ${LONGHAUL_FLINK_REST_PORT}
$(flink_rest_ssl_conf)
$(flink_internal_ssl_conf)
web:
  tmpdir: ${run}/tmp/web
io:
  tmp:
    dirs: ${run}/tmp
$(flink_ha_conf "$run")
parallelism:
  default: 1
pekko:
  ask:
    timeout: ${LONGHAUL_FLINK_ASK_TIMEOUT}
# JM and TM start side by side: a TM that finds no ResourceManager yet retries after this pause
# (default 10 s, which made every start take ~20 s).
cluster:
  registration:
    error-delay: 1 s
state:
  backend:
    type: hashmap
# Each job checkpoints into checkpoints/<its name> (longhaul job submit sets it); checkpoints are
# kept when a job is canceled or its cluster dies, so the keeper can restore the newest.
execution:
  checkpointing:
    dir: file://${run}/checkpoints
    savepoint-dir: file://${run}/savepoints
    externalized-checkpoint-retention: RETAIN_ON_CANCELLATION
    num-retained: 3
# A failing job is restarted with growing pauses, forever: a broker or InfluxDB outage must not
# end monitoring (the watchdog reports a job restarting in a loop).
restart-strategy:
  type: exponential-delay
  exponential-delay:
    initial-backoff: 1 s
    max-backoff: 1 min
    backoff-multiplier: 1.5
    reset-backoff-threshold: 10 min
EOF
}

# Environment for every Flink script (also `bin/flink run`): our conf, logs and PID files.
flink_env() {
  export FLINK_HOME FLINK_CONF_DIR FLINK_LOG_DIR FLINK_PID_DIR FLINK_IDENT_STRING=longhaul
  FLINK_HOME="$(flink_home)"
  FLINK_CONF_DIR="$(flink_run)/conf"
  FLINK_LOG_DIR="$(flink_run)/log"
  FLINK_PID_DIR="$(flink_run)"
}

# Always a fresh pair: a surviving JobManager would keep counting a dead TaskManager for its
# 50 s heartbeat timeout, and /overview would look healthy before the new one registered.
start_flink() {
  stop_flink
  flink_env
  local i
  for i in $(flink_jms); do start_flink_jm "$i"; done
  for i in $(flink_tms); do start_flink_tm "$i"; done
}

# start_flink_jm I: JobManager I; with HA each takes its RPC port from -D options (Flink's HA
# ignores jobmanager.rpc.port), and the standby its REST, blob and metrics ports too
start_flink_jm() {
  local suffix more=() off=$((($1 - 1) * 100))
  suffix="$(instance_suffix "$1")"
  if flink_ha; then more=(-D "high-availability.jobmanager.port=$((LONGHAUL_FLINK_RPC_PORT + off))"); fi
  if [ "$1" != 1 ]; then
    more+=(-D "rest.port=$((LONGHAUL_FLINK_REST_PORT + off))"
      -D "blob.server.port=$((LONGHAUL_FLINK_BLOB_PORT + off))"
      -D "metrics.internal.query-service.port=$((${LONGHAUL_FLINK_METRICS_PORTS%-*} + 50 + off))")
  fi
  SUP_PRIORITY=20 start_daemon "flink/jobmanager${suffix}" "$(flink_log "jobmanager${suffix}")" "$FLINK_HOME/bin/jobmanager.sh" start-foreground "${more[@]}"
}

# start_flink_tm I: TaskManager I; the ones after the first get ports of their own (-D options
# over config.yaml's, which are the first's)
start_flink_tm() {
  local suffix more=() off=$((($1 - 1) * 100))
  suffix="$(instance_suffix "$1")"
  if [ "$1" != 1 ]; then
    more=(-D "taskmanager.rpc.port=$(flink_tm_rpc_port "$1")"
      -D "taskmanager.data.port=$((LONGHAUL_FLINK_DATA_PORT + off))"
      -D "metrics.internal.query-service.port=$((${LONGHAUL_FLINK_METRICS_PORTS%-*} + off))"
      -D "taskmanager.resource-id=longhaul-tm$1")
  fi
  SUP_PRIORITY=20 start_daemon "flink/taskmanager${suffix}" "$(flink_log "taskmanager${suffix}")" "$FLINK_HOME/bin/taskmanager.sh" start-foreground "${more[@]}"
}

# Healthy = every daemon alive and GET /overview reports every TaskManager registered.
health_flink() {
  local name n
  for name in $(procs_flink); do svc_pid "$name" >/dev/null || return 1; done
  n="$(flink_get /overview \
    | grep -o '"taskmanagers":[0-9]*' | cut -d: -f2)"
  [ -n "$n" ] && [ "$n" -ge "${LONGHAUL_FLINK_TASKMANAGERS}" ]
}

stop_flink() {
  local i
  for i in $(flink_tms); do stop_daemon "flink/$(flink_tm "$i")"; done
  for i in $(flink_jms); do stop_daemon "flink/$(flink_jm "$i")"; done
  # Flink's launcher PID files now name dead processes: remove them so bin/*.sh do not trip on them.
  rm -f "$(flink_run)"/flink-*standalonesession.pid "$(flink_run)"/flink-*taskexecutor.pid
}
