# Kafka (KRaft) from Maven Central jars: LONGHAUL_KAFKA_BROKERS_N nodes, each broker + controller.
# Broker 1 is the supervised program `kafka` in run/kafka; broker i > 1 is `kafka-i` in run/kafka-i.
# shellcheck shell=bash

kafka_home() { echo "${CACHE_DIR}/kafka-${LONGHAUL_KAFKA_VERSION}"; }
kafka_brokers() { seq 1 "${LONGHAUL_KAFKA_BROKERS_N}"; }
kafka_proc() { echo "kafka$(instance_suffix "${1:-1}")"; }  # BROKER
kafka_run()  { echo "${RUN_ROOT}/$(kafka_proc "${1:-1}")"; }                        # BROKER (default 1)
# kafka_port BASE BROKER: that broker's port of the listener whose broker-1 port is BASE
kafka_port() { echo $(($1 + ($2 - 1) * LONGHAUL_KAFKA_PORT_STEP)); }
procs_kafka() { local i; for i in $(kafka_brokers); do kafka_proc "$i"; done; }
ports_kafka() { local i p=(); for i in $(kafka_brokers); do p+=("$(kafka_port "${LONGHAUL_KAFKA_PORT}" "$i")"); done; echo "${p[*]}"; }  # client ports
logs_kafka()  { local i; for i in $(kafka_brokers); do echo "$(kafka_run "$i")/logs/server.log" "$(kafka_run "$i")/logs/kafka.out"; done; }

# Kafka 4.x logs nothing without slf4j 2 and log4j-slf4j2-impl
install_kafka() {
  local v="${LONGHAUL_KAFKA_VERSION}"
  install_maven_jars "$(kafka_home)" Kafka "$v" "org.apache.kafka:kafka_${LONGHAUL_KAFKA_SCALA_VERSION}:$v" \
    "org.apache.kafka:kafka-tools:$v" "org.slf4j:slf4j-api:${LONGHAUL_SLF4J_VERSION}" \
    "org.apache.logging.log4j:log4j-slf4j2-impl:${LONGHAUL_LOG4J_VERSION}" \
    "org.apache.logging.log4j:log4j-core:${LONGHAUL_LOG4J_VERSION}"
}

# test_super_user_ready: the running brokers make LONGHAUL_KAFKA_TEST_SUPER_USER, the tests' and
# benchmarks' SCRAM user, a super user (a stack that `make up` or `make demo` started has none: no
# password is a super user's there)
test_super_user_ready() {
  grep -q "^super.users=.*;User:${LONGHAUL_KAFKA_TEST_SUPER_USER}\$" "$(kafka_run)/server.properties" 2>/dev/null
}

kafka_class() { "$JAVA" -cp "$(kafka_home)/libs/*" "$@"; }

# kafka_listeners: the broker's listeners. Secured (the default): clients on SASL_SSL with
# SCRAM-SHA-512; administration and inter-broker traffic on ADMIN, mutual TLS, where only the
# admin and broker certificates get in; ARCHIVER, mutual TLS for pScheduler's Kafka archiver
# (it has no SASL; its certificate's CN, pscheduler, may only write the archivers' topic); the
# controller on SSL with client auth. Every principal
# but those two super users gets only its ACLs (longhaul setup). No password is a super user's:
# LONGHAUL_KAFKA_TEST_SUPER_USER (set by the test scripts only, never by install.sh) makes that
# SCRAM user one, for the tests' own clients. Plaintext only when LONGHAUL_KAFKA_SECURITY=plaintext
# says so.
kafka_listeners() { # BROKER
  local s client ctrl admin arch
  s="$(secrets_dir)"
  client="$(kafka_port "${LONGHAUL_KAFKA_PORT}" "$1")" ctrl="$(kafka_port "${LONGHAUL_KAFKA_CONTROLLER_PORT}" "$1")"
  admin="$(kafka_port "${LONGHAUL_KAFKA_ADMIN_PORT}" "$1")" arch="$(kafka_port "${LONGHAUL_KAFKA_ARCHIVER_PORT}" "$1")"
  if [ "${LONGHAUL_KAFKA_SECURITY}" = plaintext ]; then
    cat <<EOF
listeners=PLAINTEXT://127.0.0.1:${client},CONTROLLER://127.0.0.1:${ctrl}
advertised.listeners=PLAINTEXT://127.0.0.1:${client}
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
EOF
    return
  fi
  cat <<EOF
listeners=SASL_SSL://127.0.0.1:${client},CONTROLLER://127.0.0.1:${ctrl},ADMIN://127.0.0.1:${admin},ARCHIVER://127.0.0.1:${arch}
advertised.listeners=SASL_SSL://127.0.0.1:${client},ADMIN://127.0.0.1:${admin},ARCHIVER://127.0.0.1:${arch}
listener.security.protocol.map=SASL_SSL:SASL_SSL,CONTROLLER:SSL,ADMIN:SSL,ARCHIVER:SSL
inter.broker.listener.name=ADMIN
sasl.enabled.mechanisms=SCRAM-SHA-512
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.controller.ssl.client.auth=required
listener.name.admin.ssl.client.auth=required
listener.name.archiver.ssl.client.auth=required
ssl.keystore.type=PEM
ssl.keystore.location=${s}/broker.pem
ssl.truststore.type=PEM
ssl.truststore.location=${s}/ca.crt
# A certificate's principal is its whole subject (RFC 2253: CN=admin,O=Longhaul for
# /O=Longhaul/CN=admin), which no SCRAM user name can equal: the super users are the admin and
# broker certificates, not a password, and a certificate named admin by another O is no one. On
# the archiver listener a pScheduler host's certificate is its CN (pscheduler-NAME, the name its
# ACLs carry) and every other certificate one principal without a right, the admin's too.
ssl.principal.mapping.rules=DEFAULT
listener.name.archiver.ssl.principal.mapping.rules=RULE:^CN=(pscheduler(-[a-z0-9._-]+)?),O=Longhaul\$/\$1/,RULE:^.*\$/not-an-archiver/
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
allow.everyone.if.no.acl.found=false
super.users=User:CN=admin,O=Longhaul;User:CN=broker,O=Longhaul${LONGHAUL_KAFKA_TEST_SUPER_USER:+;User:${LONGHAUL_KAFKA_TEST_SUPER_USER}}
EOF
}

# configure_kafka: every broker's config; storage formatted once, with one cluster id for all.
configure_kafka() {
  local i cluster_id="" formatted
  if [ "${LONGHAUL_KAFKA_SECURITY}" != plaintext ]; then
    ensure_cert broker
    ensure_cert admin
    ensure_cert pscheduler  # for the local archiver (tests, bench); a site's pScheduler hosts get theirs from its CA
  fi
  # The quorum's voters are fixed when the storage is formatted: a stack formatted for another
  # number of brokers cannot take this one's.
  formatted="$(cat "$(kafka_run 1)/data/brokers_n" 2>/dev/null || true)"
  [ -n "$formatted" ] || [ ! -f "$(kafka_run 1)/data/meta.properties" ] || formatted=1  # formatted before brokers_n
  if [ -n "$formatted" ] && [ "$formatted" != "${LONGHAUL_KAFKA_BROKERS_N}" ]; then
    die "Kafka's storage in $(kafka_run 1)/data was formatted for ${formatted} broker(s), not LONGHAUL_KAFKA_BROKERS_N=${LONGHAUL_KAFKA_BROKERS_N}: use another LONGHAUL_STACK_DIR, or make clean"
  fi
  for i in $(kafka_brokers); do
    configure_kafka_broker "$i"
    [ -n "$cluster_id" ] || cluster_id="$(sed -n 's/^cluster.id=//p' "$(kafka_run "$i")/data/meta.properties" 2>/dev/null || true)"
  done
  for i in $(kafka_brokers); do
    [ -f "$(kafka_run "$i")/data/meta.properties" ] && continue
    if [ -z "$cluster_id" ]; then
      cluster_id="$(kafka_class kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n 1)"
      [ -n "$cluster_id" ] || die "StorageTool random-uuid failed"
    fi
    format_kafka_broker "$i" "$cluster_id"
  done
}

# kafka_voters: controller.quorum.voters, every broker being a controller
kafka_voters() {
  local i out=""
  for i in $(kafka_brokers); do out+="${out:+,}${i}@127.0.0.1:$(kafka_port "${LONGHAUL_KAFKA_CONTROLLER_PORT}" "$i")"; done
  echo "$out"
}

configure_kafka_broker() { # BROKER
  local run r="${LONGHAUL_KAFKA_REPLICATION}" isr="${LONGHAUL_KAFKA_MIN_ISR}"
  run="$(run_dir "$(kafka_proc "$1")")"
  mkdir -p "$run/data" "$run/logs"
  cat >"$run/server.properties" <<EOF
# generated by scripts/stack/kafka.sh from scripts/stack/defaults.env; edits are overwritten
process.roles=broker,controller
node.id=$1
controller.quorum.voters=$(kafka_voters)
$(kafka_listeners "$1")
controller.listener.names=CONTROLLER
log.dirs=${run}/data
# Topics are created explicitly (longhaul setup, ingest/topics.yaml); retention is set per topic there.
auto.create.topics.enable=false
num.partitions=1
# Replication (LONGHAUL_KAFKA_REPLICATION, LONGHAUL_KAFKA_MIN_ISR): with acks=all a record is
# acknowledged once min.insync.replicas brokers have it.
default.replication.factor=${r}
min.insync.replicas=${isr}
offsets.topic.replication.factor=${r}
offsets.topic.num.partitions=4
# Flink's exactly-once KafkaSink uses transactions: the state log is replicated like the topics.
transaction.state.log.replication.factor=${r}
transaction.state.log.min.isr=${isr}
transaction.state.log.num.partitions=4
# KafkaSink may ask for transaction timeouts up to 1 h; the broker default cap is 15 min.
transaction.max.timeout.ms=3600000
share.coordinator.state.topic.replication.factor=${r}
share.coordinator.state.topic.min.isr=${isr}
group.initial.rebalance.delay.ms=0
# a stalled broker is fenced after this long without a heartbeat (defaults.env: 20 s alone)
broker.session.timeout.ms=${LONGHAUL_KAFKA_SESSION_TIMEOUT_MS}
log.cleaner.dedupe.buffer.size=${LONGHAUL_KAFKA_DEDUPE_BUFFER}
EOF
  cat >"$run/log4j2.properties" <<EOF
# generated by scripts/stack/kafka.sh: broker logs go to logs/server.log
status = warn
appender.file.type = RollingFile
appender.file.name = file
appender.file.fileName = ${run}/logs/server.log
appender.file.filePattern = ${run}/logs/server.log.%i
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
appender.file.policies.type = Policies
appender.file.policies.size.type = SizeBasedTriggeringPolicy
appender.file.policies.size.size = 50MB
appender.file.strategy.type = DefaultRolloverStrategy
appender.file.strategy.max = 3
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = file
logger.state.name = state.change.logger
logger.state.level = WARN
EOF
}

format_kafka_broker() { # BROKER CLUSTER_ID
  local run
  run="$(kafka_run "$1")"
  kafka_class -Dlog4j2.configurationFile="$run/log4j2.properties" kafka.tools.StorageTool format \
    -t "$2" -c "$run/server.properties" >>"$run/logs/format.log" 2>&1 \
    || { show_log "$run/logs/format.log"; die "Kafka storage format failed (broker $1)"; }
  echo "${LONGHAUL_KAFKA_BROKERS_N}" >"$run/data/brokers_n"
  log "formatted Kafka storage of broker $1 (cluster $2)"
}

start_kafka() {
  local i
  for i in $(kafka_brokers); do start_kafka_broker "$i"; done
}

# start_kafka_broker BROKER: the program kafka${suffix}, i.e. kafka, kafka-2, ...
start_kafka_broker() {
  local run suffix
  run="$(kafka_run "$1")"
  suffix="$(instance_suffix "$1")"
  # shellcheck disable=SC2086  # heap options are a word list
  SUP_PRIORITY=10 start_daemon kafka${suffix} "$run/logs/kafka.out" "$JAVA" ${LONGHAUL_KAFKA_HEAP_OPTS} \
    -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$run/log4j2.properties" -Djava.io.tmpdir="$run" \
    -cp "$(kafka_home)/libs/*" kafka.Kafka "$run/server.properties"
}

# Healthy = every broker answers a Metadata request (v4, all topics) listing all
# LONGHAUL_KAFKA_BROKERS_N brokers, i.e. each has registered with the KRaft quorum. Raw protocol:
# ~10 ms instead of the ~2 s of a TopicCommand JVM; secured, over openssl with the admin
# certificate on the ADMIN listener (the client listener would want a SCRAM handshake first).
# size=24 | api_key=3 (Metadata) | version=4 | correlation_id=0x4c48 | client_id "lh-health"
# | topics=-1 (all) | allow_auto_topic_creation=false
KAFKA_METADATA_V4='\x00\x00\x00\x18\x00\x03\x00\x04\x00\x00\x4c\x48\x00\x09lh-health\xff\xff\xff\xff\x00'
health_kafka() {
  local i
  for i in $(kafka_brokers); do health_kafka_broker "$i" || return 1; done
}

health_kafka_broker() { # BROKER
  local hex s port
  if [ "${LONGHAUL_KAFKA_SECURITY}" = plaintext ]; then
    port="$(kafka_port "${LONGHAUL_KAFKA_PORT}" "$1")"
    port_open "$port" || return 1
    # shellcheck disable=SC2016  # the inner script expands its own arguments
    hex="$(timeout 3 bash -c '
      exec 3<>"/dev/tcp/127.0.0.1/$1"
      printf "$2" >&3
      head -c 16 <&3 | od -An -tx1 | tr -d " \n"' _ "$port" "$KAFKA_METADATA_V4")" || return 1
  else
    port="$(kafka_port "${LONGHAUL_KAFKA_ADMIN_PORT}" "$1")"
    port_open "$port" || return 1
    s="${LONGHAUL_SECRETS_DIR}"
    # openssl runs beside the shell: the request goes in, 16 bytes of answer come out, then it is
    # killed (it would otherwise wait for more until a timeout).
    # shellcheck disable=SC2016
    hex="$(timeout 5 bash -c '
      coproc TLS { exec openssl s_client -quiet -connect "127.0.0.1:$2" -cert "$3" -key "$3" -CAfile "$4" \
        -verify_return_error 2>/dev/null; }
      exec 3<&"${TLS[0]}" 4>&"${TLS[1]}"   # pipeline subshells do not see coproc fds
      printf "$1" >&4
      head -c 16 <&3 | od -An -tx1 | tr -d " \n"
      kill "$TLS_PID" 2>/dev/null' \
      _ "$KAFKA_METADATA_V4" "$port" "$s/admin.pem" "$s/ca.crt")" || return 1
  fi
  # bytes 4-7 correlation id, 8-11 throttle_time_ms, 12-15 number of brokers
  [ "${hex:8:8}" = "00004c48" ] && [ $((16#${hex:24:8})) -ge "${LONGHAUL_KAFKA_BROKERS_N}" ]
}

# One broker after another, each a controlled shutdown. The last of a cluster has no controller
# quorum left to acknowledge its own (every broker is a KRaft voter): it would wait out
# supervisord's 40 s to its SIGKILL, so it gets LAST_BROKER_STOP_S, then SIGKILL. Its data is
# safe: every record was written before, and the next start recovers its logs.
LAST_BROKER_STOP_S=5
stop_kafka() {
  local i last="${LONGHAUL_KAFKA_BROKERS_N}" pid waited=0
  for i in $(seq 1 $((last - 1))); do stop_daemon "$(kafka_proc "$i")"; done
  pid="$(svc_pid "$(kafka_proc "$last")")" || pid=""
  if [ "$last" = 1 ] || [ -z "$pid" ]; then stop_daemon "$(kafka_proc "$last")"; return 0; fi
  stop_daemon "$(kafka_proc "$last")" &
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt $((LAST_BROKER_STOP_S * 10)) ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$(kafka_proc "$last"): no quorum left for its controlled shutdown after ${LAST_BROKER_STOP_S} s: killed"
    kill -9 "$pid" 2>/dev/null || true
  fi
  wait
}
