#!/usr/bin/env bash
# The OCI images of the agent and the central side, built with podman from the .deb packages of
# `make dist` (the same artifacts a host installs), on a Debian 12 base made with debootstrap
# (scripts/debian-root.sh --base; nothing can be pulled from a public registry here), tagged
# localhost/longhaul-probe:TAG and localhost/longhaul:TAG (TAG: the version with ~ and + as -), and
# saved as OCI archives into dist/ beside the packages.
#   scripts/images.sh [--out DIR] [--no-save]     (amd64: the architecture of this host)
# podman here needs runc, cgroupfs and explicit ulimits (../shared/notes/stack-recipes.md):
# PODMAN_ARGS and RUN_ARGS carry them, for this script and the tests that run the images.
set -euo pipefail
# shellcheck source=stack/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/stack/lib.sh"
LOG_TAG=images
cd "${LONGHAUL_ROOT}"

OUT="${LONGHAUL_ROOT}/dist" SAVE=1
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT="$2"; shift ;;
    --no-save) SAVE=0 ;;
    *) die "unknown argument $1" ;;
  esac
  shift
done

VERSION="$(bash scripts/version.sh)"
TAG="${VERSION//[~+]/-}"
ARCH="$(dpkg --print-architecture)"
PODMAN=(podman --cgroup-manager=cgroupfs --runtime /usr/sbin/runc)
BUILD_ARGS=(--network host --ulimit nofile=10000:10000 --ulimit nproc=1000:1000)

# base_image: localhost/longhaul-base:<the tarball's name>, imported once
base_image() {
  local tarball name
  tarball="$(bash scripts/debian-root.sh --base)"
  name="localhost/longhaul-base:$(basename "$tarball" .tar)"
  if ! "${PODMAN[@]}" image exists "$name"; then
    "${PODMAN[@]}" import --quiet "$tarball" "$name" >/dev/null
    log "imported ${tarball##*/} as ${name}"
  fi
  echo "$name"
}

# image NAME DEB CONTAINERFILE: build, tag, save
image() {
  local name="$1" deb="$2" file="$3" ref
  ref="localhost/${name}:${TAG}"
  [ -f "${OUT}/${deb}" ] || die "no ${OUT}/${deb}: make dist first"
  "${PODMAN[@]}" build --quiet "${BUILD_ARGS[@]}" --build-arg BASE="$BASE" --build-arg DEB="$deb" \
    --build-arg VERSION="$VERSION" -t "$ref" -f "$file" "$OUT" >/dev/null
  log "built ${ref} ($("${PODMAN[@]}" image inspect --format '{{.Size}}' "$ref" | awk '{printf "%.0f MB", $1 / 1e6}'))"
  if [ "$SAVE" = 1 ]; then
    rm -f "${OUT}/${name}_${VERSION}_${ARCH}.oci.tar"
    "${PODMAN[@]}" save --quiet --format oci-archive -o "${OUT}/${name}_${VERSION}_${ARCH}.oci.tar" "$ref"
  fi
}

main() {
  local t0
  t0="$(now_ms)"
  command -v podman >/dev/null || die "podman is needed: bash scripts/prereqs.sh"
  BASE="$(base_image)"
  image longhaul-probe "longhaul-probe_${VERSION}-1_${ARCH}.deb" images/agent/Containerfile
  image longhaul "longhaul_${VERSION}-1_${ARCH}.deb" images/operator/Containerfile
  log "images in $(elapsed_s "$t0" "$(now_ms)")s; for docker-compose.yml: LONGHAUL_IMAGE_TAG=${TAG}"
}

main
