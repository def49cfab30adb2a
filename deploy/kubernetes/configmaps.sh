#!/usr/bin/env bash
# The ConfigMaps the manifests and Helm values mount, made from the repository's own files, so
# Kubernetes runs the configuration the native stack and docker-compose run (nothing is copied
# into deploy/kubernetes). Run from anywhere, again after any of these files changed (then restart
# what mounts it: kubectl rollout restart deployment/telegraf ...):
#   deploy/kubernetes/configmaps.sh [NAMESPACE]        (default longhaul; needs kubectl)
# KUBECTL names another kubectl (tests/unit/test_kubernetes_manifests.py runs this with one that
# records its arguments, and checks that every ConfigMap mounted is made here from files that exist).
set -euo pipefail
ns="${1:-longhaul}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
kubectl="${KUBECTL:-kubectl}"

# configmap NAME FILE_OR_DIR...: create or replace the ConfigMap NAME from the files
configmap() {
  local name="$1" src args=()
  shift
  for src in "$@"; do args+=("--from-file=$root/$src"); done
  $kubectl create configmap "$name" -n "$ns" "${args[@]}" --dry-run=client -o yaml | $kubectl apply -n "$ns" -f -
}

configmap longhaul-telegraf ingest/telegraf/telegraf.conf
configmap longhaul-alerting alerting/alertmanager.yml
configmap longhaul-alert-templates alerting/templates
configmap longhaul-alertmanager-compose compose/alertmanager
configmap longhaul-grafana-datasources dashboards/provisioning/datasources
configmap longhaul-grafana-dashboard-providers dashboards/provisioning/dashboards
configmap longhaul-grafana-alerting dashboards/provisioning/alerting
configmap longhaul-dashboards dashboards/json
