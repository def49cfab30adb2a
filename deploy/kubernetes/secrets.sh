#!/usr/bin/env bash
# The Secrets the manifests and Helm values mount, from a folder of secret files made by
# scripts/secrets.sh (the same files as docker-compose's ./secrets: a private CA, InfluxDB's and
# Alertmanager's certificates for the Service names `influxdb` and `alertmanager`, passwords, and
# Alertmanager's web config with bcrypt hashes only). Nothing is printed but names, and no value is
# ever written into a manifest:
#   bash scripts/secrets.sh ./k8s-secrets               (once; keep that folder as you keep ./secrets)
#   deploy/kubernetes/secrets.sh ./k8s-secrets [NAMESPACE]
# Kafka's passwords are not here: the Strimzi User Operator makes one per KafkaUser and keeps it
# in the Secret of the user's name (key `password`); Kafka's CA is Strimzi's
# (longhaul-cluster-ca-cert). The Kafka passwords scripts/secrets.sh also makes go unused.
# KUBECTL names another kubectl (tests/unit/test_kubernetes_manifests.py runs this with one that
# records its arguments, and checks that every Secret and key the manifests mount is made here,
# from files scripts/secrets.sh makes, or by Strimzi).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 SECRETS_DIR [NAMESPACE]" >&2; exit 2; }
dir="$(cd "$1" && pwd)" ns="${2:-longhaul}"
kubectl="${KUBECTL:-kubectl}"

# secret NAME KEY=FILE...: create or replace the Secret NAME with each FILE (of the folder) under
# KEY; KEY=user:NAME puts the user name NAME itself (a name, not a secret)
secret() {
  local name="$1" kv args=()
  shift
  for kv in "$@"; do
    case "${kv#*=}" in
      user:*) args+=("--from-literal=${kv%%=*}=${kv#*=user:}") ;;
      *) args+=("--from-file=${kv%%=*}=$dir/${kv#*=}") ;;
    esac
  done
  $kubectl create secret generic "$name" -n "$ns" "${args[@]}" --dry-run=client -o yaml | $kubectl apply -n "$ns" -f - >/dev/null
  echo "secret $name: ${*%%=*}"
}

secret longhaul-ca ca.crt=ca.crt
secret longhaul-flink-internal flink-internal.p12=flink-internal.p12
secret longhaul-influxdb-tls influxdb.pem=influxdb.pem
secret longhaul-influxdb-admin influxdb-user=user:admin influxdb-password=influx-admin.password
secret longhaul-influxdb-setup influx-admin.password=influx-admin.password \
  influx-writer.password=influx-writer.password influx-reader.password=influx-reader.password
secret longhaul-telegraf influx-writer.password=influx-writer.password
secret longhaul-watchdog influx-reader.password=influx-reader.password
secret longhaul-alertmanager alertmanager.pem=alertmanager.pem alertmanager-web.yml=alertmanager-web.yml \
  alertmanager-operator.password=alertmanager-operator.password
secret longhaul-alert-bridge alertmanager-bridge.password=alertmanager-bridge.password
secret longhaul-grafana influx-reader.password=influx-reader.password \
  alertmanager-grafana.password=alertmanager-grafana.password
secret longhaul-grafana-admin admin-user=user:admin admin-password=grafana-admin.password
