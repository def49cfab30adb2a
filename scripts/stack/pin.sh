#!/usr/bin/env bash
# Writes the hashes the native stack checks what it downloads against (scripts/stack/pins/), for
# the versions scripts/stack/defaults.env names (or the environment overrides), after a version
# change. Review the diff before committing: a pin is a claim that these are the right bytes.
#   scripts/stack/pin.sh flink       every file PyPI's index lists for apache-flink and
#                                    apache-flink-libraries at LONGHAUL_FLINK_VERSION (pip's format)
#   scripts/stack/pin.sh kafka       the jars Maven resolves for Kafka (checked against the
#   scripts/stack/pin.sh zookeeper   repository's checksums, -C), in sha256sum's format
# The Go-built services (InfluxDB, Telegraf, Alertmanager) need no pins here: `go install` checks
# every module against the Go checksum database (GOSUMDB).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
load_services

pin_flink() {
  local v="$LONGHAUL_FLINK_VERSION" out pkg page
  out="$(LONGHAUL_PIN_WRITE=1 pins_file flink "$v" txt)"
  {
    echo "# The Flink distribution the native stack installs (scripts/stack/flink.sh install_flink), with the"
    echo "# sha256 of every file PyPI's index lists for this version: pip --require-hashes installs nothing"
    echo "# else. Written by scripts/stack/pin.sh flink from https://pypi.org/simple/ ($(date -u +%F))."
    for pkg in apache-flink apache-flink-libraries; do
      page="$(curl -fsS "https://pypi.org/simple/$pkg/")" || die "PyPI's index of $pkg did not answer"
      echo "$pkg==$v \\"
      grep -o "${pkg//-/_}-${v}[^\"#<]*#sha256=[0-9a-f]*" <<<"$page" | sed 's/.*#sha256=//' | sort -u \
        | sed 's/^/    --hash=sha256:/; $!s/$/ \\/'
    done
  } >"$out.new"
  grep -q -- '--hash=' "$out.new" || die "no file of Flink $v on PyPI's index"
  mv "$out.new" "$out"
  log "wrote ${out#"$LONGHAUL_ROOT"/}"
}

# a fresh cache, so Maven resolves and the pins describe what it resolved now
pin_jars() {
  CACHE_DIR="$(mktemp -d)"
  trap 'rm -rf "$CACHE_DIR"' EXIT
  LONGHAUL_PIN_WRITE=1 LONGHAUL_FLINK_HA=zookeeper "install_$1"
}

case "${1:-}" in
  flink) pin_flink ;;
  kafka | zookeeper) pin_jars "$1" ;;
  *) echo "usage: $0 flink|kafka|zookeeper" >&2; exit 2 ;;
esac
