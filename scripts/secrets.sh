#!/usr/bin/env bash
# The secrets of a docker-compose deployment, made in DIR (./secrets, mounted read-only into the
# services at /run/secrets/longhaul) by compose's one-shot `secrets` service:
#   bash scripts/secrets.sh DIR
# The same files as the native stack's secrets folder (docs/security.md): a private CA, the
# broker's, admin's, InfluxDB's and Alertmanager's certificates (for the compose host names),
# Flink's self-signed REST certificate (make_rest_cert), the services' Kafka and InfluxDB passwords, Grafana's admin password, Alertmanager's users' passwords
# (bridge, operator, grafana) and the compose agent's password. Each is made only when missing,
# so a file you place there first (your own CA and certificates, a chosen password) is kept; delete
# one and run again to replace it. Files are 0600 (ca.crt 0644), no trailing newline on passwords,
# the folder 0700; nothing is printed but file names. Alertmanager's web config
# (alertmanager-web.yml: TLS and its users' bcrypt hashes, `longhaul alertmanager-web-config`) is
# derived from those passwords and written again on every run, so a rotated one reaches it.
# Each service mounts only its own subfolder (DIR/SERVICE), holding copies of the secrets it
# needs, owned by the user its image runs as: refreshed on every run, so a rotated password reaches
# them. ca.crt (not a secret) is mounted on its own; `setup`, the one-shot administrator, mounts DIR.
# Functions for other scripts: source this file, then make_password, make_ca, make_cert.
# shellcheck shell=bash

# make_password FILE: a random password (32 letters and digits) in FILE, unless it exists.
make_password() {
  local f="$1" tmp
  [ -s "$f" ] && return 0
  tmp="$(mktemp "$f.XXXXXX")"
  (umask 077 && openssl rand -base64 48 | tr -dc 'A-Za-z0-9' | head -c 32 >"$tmp")
  chmod 0600 "$tmp"
  # ln fails when FILE appeared meanwhile: the first one made is kept
  ln "$tmp" "$f" 2>/dev/null || true
  rm -f "$tmp"
}

# make_ca DIR: DIR/ca.key and DIR/ca.crt, a self-signed CA (10 years), unless both exist.
make_ca() {
  local d="$1"
  [ -s "$d/ca.crt" ] && [ -s "$d/ca.key" ] && return 0
  (umask 077 && openssl req -x509 -newkey rsa:2048 -nodes -keyout "$d/ca.key" -out "$d/ca.crt" -days 3650 \
    -subj "/O=Longhaul/CN=Longhaul private CA" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign) >/dev/null 2>&1 \
    || { echo "openssl could not make the CA in $d" >&2; return 1; }
  chmod 0644 "$d/ca.crt"
}

# make_cert DIR NAME [SAN...]: DIR/NAME.pem (unencrypted PKCS#8 key, then the certificate) signed
# by DIR's CA, CN=NAME (last in the subject: Kafka's principal mapping reads it), for localhost,
# 127.0.0.1 and each SAN given (DNS:kafka, IP:10.0.0.5), unless it exists. 825 days.
make_cert() {
  local d="$1" name="$2" san="IP:127.0.0.1,DNS:localhost" s
  shift 2
  for s in "$@"; do san="$san,$s"; done
  [ -s "$d/$name.pem" ] && return 0
  make_ca "$d" || return 1
  (
    umask 077
    openssl req -newkey rsa:2048 -nodes -keyout "$d/$name.key" -out "$d/$name.csr" -subj "/O=Longhaul/CN=$name" &&
      printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth,clientAuth\n' "$san" >"$d/$name.ext" &&
      openssl x509 -req -in "$d/$name.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -set_serial "0x$(openssl rand -hex 16)" \
        -days 825 -out "$d/$name.crt" -extfile "$d/$name.ext" &&
      cat "$d/$name.key" "$d/$name.crt" >"$d/$name.pem"
  ) >/dev/null 2>&1 || { echo "openssl could not make the certificate $name in $d" >&2; return 1; }
  rm -f "$d/$name.csr" "$d/$name.ext" "$d/$name.key" "$d/$name.crt"
}

# Flink's REST API admits one client certificate, self-signed, not the CA's (docs/security.md):
# Flink checks a client's chain, not who it is, so any certificate the CA signs (a pScheduler
# host's) would open it otherwise. make_rest_cert DIR [SAN...] makes DIR/flink-rest.pem (key, then
# certificate: the clients' --flink-cert), flink-rest.crt (the certificate alone) and
# flink-rest.p12 (both, the JobManager's keystore and truststore), for localhost, 127.0.0.1 and
# each SAN given, unless they exist. 825 days.
# The PKCS#12 file's password is no secret: like the PEM keys here, which have none, the file is
# protected by its mode (0600, or a unit's credential); Flink's configuration must name one.
REST_STORE_PASSWORD=longhaul-flink-rest
make_rest_cert() {
  local d="$1" san="IP:127.0.0.1,DNS:localhost" s
  shift
  for s in "$@"; do san="$san,$s"; done
  [ -s "$d/flink-rest.pem" ] && [ -s "$d/flink-rest.p12" ] && return 0
  (
    umask 077
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$d/flink-rest.key" -out "$d/flink-rest.crt" -days 825 \
      -subj "/O=Longhaul/CN=flink-rest" -addext "subjectAltName=$san" \
      -addext extendedKeyUsage=serverAuth,clientAuth &&
      cat "$d/flink-rest.key" "$d/flink-rest.crt" >"$d/flink-rest.pem" &&
      openssl pkcs12 -export -in "$d/flink-rest.crt" -inkey "$d/flink-rest.key" -name flink-rest \
        -out "$d/flink-rest.p12" -passout "pass:${REST_STORE_PASSWORD}"
  ) >/dev/null 2>&1 || { echo "openssl could not make Flink's REST certificate in $d" >&2; return 1; }
  rm -f "$d/flink-rest.key"
  chmod 0644 "$d/flink-rest.crt"
}

# Flink's internal connections (RPC between JobManager and TaskManagers, the blob server, the data
# shuffle) are mutual TLS with one key, self-signed, that only Flink's own processes hold: Flink
# trusts no other certificate there (docs/security.md). make_internal_cert DIR makes
# DIR/flink-internal.p12 (key and certificate: every Flink process's keystore and truststore)
# unless it exists. Its password, as the REST store's, is no secret: the file's mode protects it.
INTERNAL_STORE_PASSWORD=longhaul-flink-internal
make_internal_cert() {
  local d="$1"
  [ -s "$d/flink-internal.p12" ] && return 0
  (
    umask 077
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$d/flink-internal.key" -out "$d/flink-internal.crt" \
      -days 825 -subj "/O=Longhaul/CN=flink-internal" -addext extendedKeyUsage=serverAuth,clientAuth &&
      openssl pkcs12 -export -in "$d/flink-internal.crt" -inkey "$d/flink-internal.key" -name flink-internal \
        -out "$d/flink-internal.p12" -passout "pass:${INTERNAL_STORE_PASSWORD}"
  ) >/dev/null 2>&1 || { echo "openssl could not make Flink's internal certificate in $d" >&2; return 1; }
  rm -f "$d/flink-internal.key" "$d/flink-internal.crt"
}

# give DIR SERVICE UID FILE...: DIR/SERVICE/ with copies of the FILEs (0400), owned by UID (when
# run as root, as the compose service is; otherwise they stay the caller's).
give() {
  local d="$1" sub="$2" uid="$3" f owner=()
  shift 3
  [ "$(id -u)" = 0 ] && owner=(-o "$uid" -g "$uid")
  mkdir -p "$d/$sub" && chmod 0700 "$d/$sub"
  for f in "$@"; do
    install "${owner[@]}" -m 0400 "$d/$f" "$d/$sub/.$f.tmp" && mv -f "$d/$sub/.$f.tmp" "$d/$sub/$f"
  done
  [ "${#owner[@]}" = 0 ] || chown "$uid:$uid" "$d/$sub"
  chmod 0500 "$d/$sub"
}

# alertmanager_web_config DIR: DIR/alertmanager-web.yml, Alertmanager's --web.config.file: TLS
# with alertmanager.pem at the path the alertmanager service mounts it (the file holds the key,
# then the certificate: Go reads each from it), basic auth for bridge, operator and grafana. The
# longhaul CLI writes it (in the compose secrets service, the operator image's; run by hand, the
# checkout's bin/longhaul, or LONGHAUL_CLI).
alertmanager_web_config() {
  local d="$1" cli="${LONGHAUL_CLI:-}" pem=/run/secrets/longhaul/alertmanager.pem
  if [ -z "$cli" ]; then
    cli="$(command -v longhaul || echo "$(dirname "${BASH_SOURCE[0]}")/../bin/longhaul")"
  fi
  [ -x "$cli" ] || { echo "no longhaul CLI to write Alertmanager's web config (make build-go, or set LONGHAUL_CLI)" >&2; return 1; }
  "$cli" alertmanager-web-config --secrets-dir "$d" --cert "$pem" --key "$pem" -o "$d/alertmanager-web.yml" \
    || { echo "longhaul alertmanager-web-config failed in $d" >&2; return 1; }
}

# compose_secrets DIR: everything docker-compose.yml mounts from ./secrets.
compose_secrets() {
  local d="$1" f
  mkdir -p "$d" && chmod 0700 "$d"
  make_ca "$d"
  make_cert "$d" broker DNS:kafka
  make_cert "$d" admin
  make_cert "$d" influxdb DNS:influxdb
  make_cert "$d" alertmanager DNS:alertmanager
  make_cert "$d" pscheduler  # for pScheduler's Kafka archiver on the ARCHIVER listener (port 9095)
  make_rest_cert "$d" DNS:jobmanager
  make_internal_cert "$d"
  for f in kafka-flink kafka-telegraf kafka-operator kafka-watchdog kafka-alerter kafka-psbridge kafka-importer kafka-agent-compose \
    influx-admin influx-writer influx-reader grafana-admin alertmanager-bridge alertmanager-operator \
    alertmanager-grafana; do
    make_password "$d/$f.password"
  done
  alertmanager_web_config "$d"
  chmod 0600 "$d"/*.password "$d"/*.pem "$d/flink-rest.p12" "$d/flink-internal.p12" "$d/ca.key" "$d/alertmanager-web.yml"
  give "$d" kafka 1000 broker.pem admin.pem                               # apache/kafka runs as appuser
  give "$d" influxdb 0 influxdb.pem influx-admin.password                 # influxdb:1.8 runs as root
  give "$d" telegraf 0 influx-writer.password kafka-telegraf.password     # root until its entrypoint drops
  give "$d" grafana 472 grafana-admin.password influx-reader.password alertmanager-grafana.password # grafana/grafana-oss
  give "$d" flink 9999 kafka-flink.password flink-rest.p12 flink-internal.p12 # flink: the job's Kafka clients, REST, internal
  give "$d" job-keeper 9999 flink-rest.pem                                # the keeper runs as the flink uid
  give "$d" agent 10001 kafka-agent-compose.password                      # the agent image's user (images/agent)
  give "$d" watchdog 10002 kafka-watchdog.password influx-reader.password flink-rest.pem # the operator image's user
  # prom/alertmanager runs as nobody; the operator's password is for its health check (amtool)
  give "$d" alertmanager 65534 alertmanager.pem alertmanager-web.yml alertmanager-operator.password
  give "$d" alert-bridge 10002 kafka-alerter.password alertmanager-bridge.password
  echo "secrets ready in $d (made only what was missing)"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  [ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
  compose_secrets "$1"
fi
