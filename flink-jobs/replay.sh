#!/usr/bin/env bash
# Offline replay of raw samples (JSON Lines) through the Longhaul job graph, without Kafka:
#   flink-jobs/replay.sh [--input FILE|-] [--stats] [--<detector>.<param> value]...
# Events go to stdout as JSON Lines (link_stats too with --stats); dead letters and errors to stderr.
# Flink's runtime comes from $FLINK_HOME/lib when FLINK_HOME is set, else from the local Maven
# repository as listed by the build (target/replay.classpath).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="${LONGHAUL_FLINK_JAR:-$here/target/longhaul-flink-jobs-0.1.0.jar}"
if [ ! -f "$jar" ]; then
  echo "replay: $jar not found; build it: (cd flink-jobs && mvn -q -B package -DskipTests)" >&2
  exit 2
fi
if [ -n "${FLINK_HOME:-}" ] && [ -d "$FLINK_HOME/lib" ]; then
  runtime="$FLINK_HOME/lib/*"
elif [ -f "$here/target/replay.classpath" ]; then
  runtime="$(cat "$here/target/replay.classpath")"
else
  echo "replay: no Flink runtime: set FLINK_HOME or build with: (cd flink-jobs && mvn -q -B package)" >&2
  exit 2
fi
opens=(--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
       --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
       --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
       --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED
       --add-opens=java.base/java.util.concurrent=ALL-UNNAMED)
exec "${JAVA:-java}" -Xmx${LONGHAUL_REPLAY_HEAP:-768m} "${opens[@]}" -cp "$jar:$runtime" \
  org.longhaul.flink.replay.Replay "$@"
