#!/usr/bin/env bash
# Prerequisites for building, running and testing Longhaul on Debian 12. Idempotent and fast when
# everything is present: it only checks, and installs only what is missing.
#   - OS packages (probe tools, shell tools, supervisord, shellcheck for make check), one apt-get call;
#     with them the install tier's: debootstrap and systemd-container (scripts/debian-root.sh and
#     tests/lib/nspawn.py boot a clean Debian 12), and the packaging checks' lintian, rpm, rpmlint,
#     podman and runc (podman needs runc on this cgroup v1 kernel: stack-recipes.md)
#   - Python venv at .venv with tests/requirements.txt (reinstalled only when that file changes)
#   - JDK 17, Maven and Go must exist (checked, not installed)
#   - chromium (renders `longhaul report` in the integration tests) with the OS packages
#   - dashboards/schema-tools: `npm ci` of the pinned Grafana foundation SDK + ts-json-schema-generator
#     (again only when package-lock.json changes); Node.js and npm must exist
set -euo pipefail
# shellcheck source=stack/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/stack/lib.sh"
LOG_TAG=prereqs

APT_PACKAGES=(iperf3 traceroute iputils-ping iproute2 iptables procps curl jq chromium supervisor shellcheck
  debootstrap systemd-container lintian rpm rpmlint podman runc)
VENV="${LONGHAUL_ROOT}/.venv"
REQUIREMENTS="${LONGHAUL_ROOT}/tests/requirements.txt"

missing_packages() {
  local pkg
  for pkg in "${APT_PACKAGES[@]}"; do
    [ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null)" = "ii " ] || echo "$pkg"
  done
}

install_packages() {
  local missing sudo=()
  mapfile -t missing < <(missing_packages)
  [ "${#missing[@]}" -gt 0 ] || return 0
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "missing packages ${missing[*]}: run as root or install sudo"
    sudo=(sudo)
  fi
  log "installing ${missing[*]}"
  # iperf3 would otherwise ask (or default) to start a system-wide iperf3 daemon.
  echo "iperf3 iperf3/start_daemon boolean false" | "${sudo[@]}" debconf-set-selections
  "${sudo[@]}" apt-get update -qq
  # One call: this image deletes downloaded .debs between dpkg runs.
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  mapfile -t missing < <(missing_packages)
  [ "${#missing[@]}" -eq 0 ] || die "still missing after apt-get install: ${missing[*]}"
}

setup_venv() {
  local stamp="${VENV}/.requirements.sha256" want
  if [ ! -x "${VENV}/bin/python" ]; then
    log "creating Python venv ${VENV}"
    python3 -m venv "${VENV}"
  fi
  if [ ! -f "${REQUIREMENTS}" ]; then
    log "no ${REQUIREMENTS#"${LONGHAUL_ROOT}"/} yet: venv has no test packages"
    return 0
  fi
  want="$(sha256sum "${REQUIREMENTS}" | cut -d' ' -f1)"
  [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && return 0
  log "installing ${REQUIREMENTS#"${LONGHAUL_ROOT}"/} into .venv"
  "${VENV}/bin/python" -m pip install -q --disable-pip-version-check -r "${REQUIREMENTS}"
  echo "$want" >"$stamp"
}

check_toolchains() {
  local go
  use_jdk17
  command -v mvn >/dev/null || die "mvn not found: apt-get install -y --no-install-recommends maven"
  go="$(go_bin)"
  "$go" version >/dev/null || die "$go does not run"
  log "ok: JDK 17 ($JAVA_HOME), $(mvn -v 2>/dev/null | head -n 1 | sed 's/\x1b\[[0-9;]*m//g'), $("$go" version | cut -d' ' -f3)"
}

SCHEMA_TOOLS="${LONGHAUL_ROOT}/dashboards/schema-tools"

setup_schema_tools() {
  local stamp="${SCHEMA_TOOLS}/node_modules/.package-lock.sha256" want
  command -v npm >/dev/null || die "npm not found: install Node.js 20 (apt-get install -y nodejs npm)"
  want="$(sha256sum "${SCHEMA_TOOLS}/package-lock.json" | cut -d' ' -f1)"
  [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && return 0
  log "npm ci in dashboards/schema-tools (Grafana foundation SDK, ts-json-schema-generator)"
  (cd "${SCHEMA_TOOLS}" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) || die "npm ci failed in ${SCHEMA_TOOLS}"
  echo "$want" >"$stamp"
}

main() {
  install_packages
  check_toolchains
  setup_venv
  setup_schema_tools
}

main "$@"
