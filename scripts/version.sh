#!/usr/bin/env bash
# The version of a build, for the binaries' --version, the job jar, the packages and the images:
#   LONGHAUL_VERSION when set (a test's "newer build"); else
#   X.Y.Z when HEAD is tagged vX.Y.Z; else
#   VERSION~gitYYYYMMDD.HHMMSS.SHA: before the release VERSION names, ordered by commit time (the
#   tilde sorts before the release in dpkg and rpm alike), with .dirty for uncommitted changes.
# `version.sh commit` and `version.sh date` print the commit and the build's date (UTC, RFC 3339);
# `version.sh ldflags` the Go linker flags that stamp all three (internal/version).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

commit() { git rev-parse HEAD 2>/dev/null || echo unknown; }
build_date() { date -u +%Y-%m-%dT%H:%M:%SZ; }

version() {
  local tag ts dirty=""
  if [ -n "${LONGHAUL_VERSION:-}" ]; then
    echo "${LONGHAUL_VERSION}"
    return
  fi
  if tag="$(git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null)"; then
    echo "${tag#v}"
    return
  fi
  ts="$(git log -1 --format=%ct 2>/dev/null || date +%s)"
  [ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || dirty=".dirty"
  echo "$(tr -d '[:space:]' <VERSION)~git$(date -u -d "@${ts}" +%Y%m%d.%H%M%S).$(git rev-parse --short=7 HEAD 2>/dev/null || echo 0000000)${dirty}"
}

case "${1:-version}" in
  version) version ;;
  commit) commit ;;
  date) build_date ;;
  ldflags)
    echo "-X longhaul/internal/version.version=$(version) -X longhaul/internal/version.commit=$(commit) -X longhaul/internal/version.date=$(build_date)"
    ;;
  *) echo "usage: version.sh [version|commit|date|ldflags]" >&2; exit 2 ;;
esac
