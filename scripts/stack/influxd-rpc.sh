#!/usr/bin/env bash
# `influxd backup` or `influxd restore` against the native stack's InfluxDB, from where its backup
# and restore port listens: InfluxDB's own network namespace when the stack runs as root (the port
# has no authentication, so no other local user may reach it; scripts/stack/influxdb.sh), else the
# host's 127.0.0.1. Root only when there is a namespace.
#
#   bash scripts/stack/influxd-rpc.sh backup -portable -db longhaul /var/backups/longhaul
#   bash scripts/stack/influxd-rpc.sh restore -portable -db longhaul -newdb longhaul_copy /var/backups/longhaul
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LOG_TAG=influxd-rpc
load_services

case "${1:-}" in
  backup | restore) ;;
  *) die "usage: $0 backup|restore [influxd's flags] PATH (influxd backup -help)" ;;
esac
cmd="$1"
shift
ns="$(influxdb_netns)"
[ -z "$ns" ] || [ -e "/run/netns/${ns}" ] || die "InfluxDB's namespace ${ns} does not exist: is the stack up (make up)?"
influxdb_in_ns "$(influxdb_home)/influxd" "$cmd" -host "127.0.0.1:${LONGHAUL_INFLUX_RPC_PORT}" "$@"
