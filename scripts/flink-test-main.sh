#!/usr/bin/env bash
# Run a main class of flink-jobs' test code (fixture writers, benchmarks) on the test classpath,
# with JDK 17 and the module opens Flink needs (the pom's flink.jdk17.opens).
# Usage: bash scripts/flink-test-main.sh [JVM_OPTION...] CLASS [ARG...]   (JVM options start with -)
set -euo pipefail
# shellcheck source=stack/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/stack/lib.sh"
use_jdk17
cd "${LONGHAUL_ROOT}/flink-jobs"
mvn -q -B -o test-compile dependency:build-classpath -Dmdep.outputFile=target/test.classpath >/dev/null 2>&1 \
  || mvn -q -B test-compile dependency:build-classpath -Dmdep.outputFile=target/test.classpath >/dev/null
OPENS="$(sed -n 's:.*<flink.jdk17.opens>\(.*\)</flink.jdk17.opens>.*:\1:p' pom.xml)"
JVM_OPTS=()
while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do JVM_OPTS+=("$1"); shift; done
# shellcheck disable=SC2086  # OPENS is a list of options
exec "$JAVA" $OPENS -Dlog4j2.configurationFile=log4j2-test.properties "${JVM_OPTS[@]}" \
  -cp "target/test-classes:target/classes:$(cat target/test.classpath)" "$@"
