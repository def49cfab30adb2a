#!/usr/bin/env bash
# Write the savepoint fixture of this release (flink-jobs/src/main/java/org/longhaul/flink/state/README.md, "State and upgrades"):
# the job's pipeline over a fixed input on an embedded cluster, stopped with a canonical savepoint
# that goes to flink-jobs/src/test/resources/savepoints/<release>/ (default: the pom's version).
# Usage: bash scripts/savepoint-fixture.sh [RELEASE]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RELEASE="${1:-$(sed -n 's:^  <version>\(.*\)</version>.*:\1:p' "$ROOT/flink-jobs/pom.xml" | head -n 1)}"
[ -n "$RELEASE" ] || { echo "savepoint-fixture: no release given and none found in flink-jobs/pom.xml" >&2; exit 2; }
exec bash "$ROOT/scripts/flink-test-main.sh" org.longhaul.flink.state.SavepointFixtureWriter \
  "$ROOT/flink-jobs/src/test/resources/savepoints/$RELEASE" "$RELEASE"
