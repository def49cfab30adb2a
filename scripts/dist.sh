#!/usr/bin/env bash
# make dist: release artifacts into dist/, from a clean clone, with nothing downloaded by hand
# (the tools are pinned in tools/go.mod and flink-jobs/pom.xml):
#   longhaul-probe and longhaul as .deb and .rpm for amd64 and arm64 (nfpm; packaging/),
#   the agent's and the operator's OCI images, built with podman from this host's architecture's
#   .deb (scripts/images.sh; saved as .oci.tar), CycloneDX SBOMs of both Go binaries and the
#   Flink job, SHA256SUMS of all of it.
# scripts/dist.sh [--arch "amd64 arm64"] [--formats "deb rpm"] [--packages "longhaul-probe longhaul"]
#                 [--no-sbom] [--no-images] [--out DIR]: a subset (the install tests build theirs).
# LONGHAUL_VERSION overrides the version scripts/version.sh derives (a test's "newer build").
set -euo pipefail
# shellcheck source=stack/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/stack/lib.sh"
LOG_TAG=dist
cd "${LONGHAUL_ROOT}"

ARCHES="amd64 arm64" FORMATS="deb rpm" PACKAGES="longhaul-probe longhaul" SBOM=1 IMAGES=1 OUT="${LONGHAUL_ROOT}/dist"
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) ARCHES="$2"; shift ;;
    --formats) FORMATS="$2"; shift ;;
    --packages) PACKAGES="$2"; shift ;;
    --no-sbom) SBOM=0 ;;
    --no-images) IMAGES=0 ;;
    --out) OUT="$2"; shift ;;
    *) die "unknown argument $1 (see the header of scripts/dist.sh)" ;;
  esac
  shift
done

VERSION="$(bash scripts/version.sh)"
LDFLAGS="-s -w $(bash scripts/version.sh ldflags)"
BUILD="${OUT}/build"
tool() { go tool -modfile=tools/go.mod "$@"; }

# build_go ARCH: both binaries, static, for linux/ARCH
build_go() {
  local arch="$1" cmd
  mkdir -p "${BUILD}/${arch}"
  for cmd in collectors/cmd/longhaul-probe operator/cmd/longhaul; do
    CGO_ENABLED=0 GOOS=linux GOARCH="$arch" go build -trimpath -ldflags "$LDFLAGS" \
      -o "${BUILD}/${arch}/$(basename "$cmd")" "./$cmd"
  done
}

# man pages, from the binaries of this host's architecture
build_docs() {
  local host
  host="$(go env GOARCH)"
  [ -x "${BUILD}/${host}/longhaul" ] || build_go "$host"
  mkdir -p "${BUILD}/man"
  packaging/manpage.sh "${BUILD}/${host}/longhaul-probe" "Longhaul probe agent" | gzip -9n >"${BUILD}/man/longhaul-probe.1.gz"
  packaging/manpage.sh "${BUILD}/${host}/longhaul" "Longhaul operator CLI and central daemons" | gzip -9n >"${BUILD}/man/longhaul.1.gz"
  install -m 0644 packaging/copyright "${BUILD}/copyright"
  changelog >"${BUILD}/changelog.yml"
  local pkg
  for pkg in longhaul-probe longhaul; do packaging/render-scripts.sh "$pkg" "${BUILD}/scripts/$pkg"; done
}

# changelog: packaging/changelog.yml, with this build's entry on top unless it is a listed release
changelog() {
  if ! grep -q "^- semver: ${VERSION}-1\$" packaging/changelog.yml; then
    printf -- '- semver: %s\n  date: %s\n  packager: %s\n  deb:\n    urgency: medium\n    distributions: [unstable]\n  changes:\n    - commit: %s\n      note: Development build of commit %s.\n' \
      "${VERSION}-1" "$(git log -1 --format=%cI 2>/dev/null || date -u +%FT%TZ)" "$(maintainer)" \
      "$(bash scripts/version.sh commit)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  fi
  grep -v '^#' packaging/changelog.yml
}

maintainer() { echo "${LONGHAUL_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || echo 'The Longhaul developers')}"; }

# the job jar, stamped with this version (flink-jobs' BuildInfo)
build_jar() {
  use_jdk17
  (cd flink-jobs && mvn -q -B -Dstyle.color=never -DskipTests -Drevision="$VERSION" \
    -Dlonghaul.commit="$(bash ../scripts/version.sh commit)" package) || die "mvn package failed"
  cp "flink-jobs/target/longhaul-flink-jobs-${VERSION}.jar" "${BUILD}/longhaul-flink.jar"
}

package() {
  local pkg="$1" arch="$2" fmt="$3" conf="${BUILD}/${1}-${2}.nfpm.yaml" docs="${BUILD}"
  # the config with this build's facts filled in (nfpm expands the environment in a few fields only)
  # shellcheck disable=SC2016  # the names envsubst replaces, not expansions
  env ARCH="$arch" VERSION="$VERSION" BUILD="${docs}/${arch}" DOCS="$docs" CHANGELOG="${docs}/changelog.yml" \
    SCRIPTS="${docs}/scripts/${pkg}" MAINTAINER="$(maintainer)" HOMEPAGE="${LONGHAUL_HOMEPAGE:-https://longhaul.example.org}" \
    envsubst '${ARCH} ${VERSION} ${BUILD} ${DOCS} ${CHANGELOG} ${SCRIPTS} ${MAINTAINER} ${HOMEPAGE}' \
    <"packaging/nfpm/${pkg}.yaml" >"$conf"
  tool nfpm package --config "$conf" --packager "$fmt" --target "${OUT}/" | sed 's/^/  /' 
}

sboms() {
  tool cyclonedx-gomod app -json -licenses -output "${OUT}/longhaul-probe_${VERSION}.cdx.json" -main collectors/cmd/longhaul-probe .
  tool cyclonedx-gomod app -json -licenses -output "${OUT}/longhaul_${VERSION}.cdx.json" -main operator/cmd/longhaul .
  use_jdk17
  (cd flink-jobs && mvn -q -B -Dstyle.color=never -Drevision="$VERSION" org.cyclonedx:cyclonedx-maven-plugin:2.9.3:makeBom \
    -DoutputFormat=json -DoutputName=bom) || die "the job's SBOM failed"
  cp flink-jobs/target/bom.json "${OUT}/longhaul-flink_${VERSION}.cdx.json"
}

main() {
  local t0 arch pkg fmt
  t0="$(now_ms)"
  mkdir -p "$OUT"
  log "version ${VERSION}: ${PACKAGES} for ${ARCHES} as ${FORMATS}"
  for arch in $ARCHES; do build_go "$arch"; done
  build_docs
  case " ${PACKAGES} " in *" longhaul "*) build_jar ;; esac
  for arch in $ARCHES; do
    for pkg in $PACKAGES; do
      for fmt in $FORMATS; do package "$pkg" "$arch" "$fmt"; done
    done
  done
  [ "$SBOM" = 0 ] || sboms
  [ "$IMAGES" = 0 ] || bash scripts/images.sh --out "$OUT"
  (cd "$OUT" && find . -maxdepth 1 -type f ! -name 'SHA256SUMS*' -printf '%P\n' | sort | xargs -r sha256sum >SHA256SUMS.new &&
    mv SHA256SUMS.new SHA256SUMS)
  log "dist/ in $(elapsed_s "$t0" "$(now_ms)")s:"
  (cd "$OUT" && find . -maxdepth 1 -type f -printf '  %s\t%P\n' | sort -k2)
}

main
