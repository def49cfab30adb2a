#!/usr/bin/env bash
# Build the Flink job jar (flink-jobs/, shaded) with JDK 17 and copy it to bin/longhaul-flink.jar.
# Skips Maven when bin/longhaul-flink.jar is newer than flink-jobs/pom.xml and every file under
# flink-jobs/src, and copies the jar a Maven run already packaged (make test-java's) when that is.
set -euo pipefail
# shellcheck source=stack/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/stack/lib.sh"
LOG_TAG=build-flink

JOBS_DIR="${LONGHAUL_ROOT}/flink-jobs"
OUT="${LONGHAUL_ROOT}/bin/longhaul-flink.jar"

# newer_than_sources JAR: JAR exists and no source of the job changed after it was written
newer_than_sources() {
  local sources=("${JOBS_DIR}/pom.xml")
  [ -f "$1" ] || return 1
  [ -d "${JOBS_DIR}/src" ] && sources+=("${JOBS_DIR}/src")
  [ -z "$(find "${sources[@]}" -newer "$1" -print -quit)" ]
}

# The shaded jar: target/longhaul-flink-jobs-*.jar, not original-*, -sources or -tests.
# None before the first Maven run: a fresh clone has no target/.
shaded_jar() {
  [ -d "${JOBS_DIR}/target" ] || return 0
  find "${JOBS_DIR}/target" -maxdepth 1 -name 'longhaul-flink-jobs-*.jar' \
    ! -name '*-sources.jar' ! -name '*-tests.jar' -printf '%T@ %p\n' 2>/dev/null \
    | sort -rn | head -n 1 | cut -d' ' -f2-
}

# install_jar JAR: JAR to bin/, renamed into place: a job submitted meanwhile (make test's
# stories, beside its niced Java tier) reads the old jar or the new one, never half of one
install_jar() {
  mkdir -p "$(dirname "$OUT")"
  cp "$1" "$OUT.tmp.$$"
  mv -f "$OUT.tmp.$$" "$OUT"
}

main() {
  local jar
  [ -f "${JOBS_DIR}/pom.xml" ] || die "no flink-jobs/pom.xml yet: nothing to build"
  if newer_than_sources "$OUT"; then
    log "bin/longhaul-flink.jar is up to date"
    return 0
  fi
  jar="$(shaded_jar)"
  if [ -n "$jar" ] && newer_than_sources "$jar"; then
    install_jar "$jar"
    log "bin/longhaul-flink.jar from target/${jar##*/}, already built from these sources"
    return 0
  fi
  use_jdk17
  log "mvn package in flink-jobs/ (JDK 17)"
  (cd "${JOBS_DIR}" && mvn -q -B -Dstyle.color=never -DskipTests \
    -Drevision="$(bash "${LONGHAUL_ROOT}/scripts/version.sh")" -Dlonghaul.commit="$(bash "${LONGHAUL_ROOT}/scripts/version.sh" commit)" \
    package) || die "mvn package failed in flink-jobs/"
  jar="$(shaded_jar)"
  [ -n "$jar" ] || die "no target/longhaul-flink-jobs-*.jar after mvn package (check artifactId/shade plugin)"
  install_jar "$jar"
  log "built bin/longhaul-flink.jar from target/${jar##*/}"
}

main "$@"
