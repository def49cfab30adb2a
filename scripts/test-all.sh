#!/usr/bin/env bash
# Runs every test of every language: unit tests first (Go, Java, Python), then the
# integration tests against the real native stack (Kafka, Flink, InfluxDB, Telegraf), which
# it starts and stops itself. Ends with one "N passed, N failed" line across all languages.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
source scripts/stack/lib.sh
OUT="$ROOT/tests/out"
rm -rf "$OUT" && mkdir -p "$OUT"
export PATH="/usr/local/go/bin:$PATH"
PY="$ROOT/.venv/bin/python"
status=0
step() { printf '\n=== %s\n' "$*"; }
run() { "$@" || status=1; }

step "Go unit tests (agent, operator CLI, testbed delay line, benchmarks generator)"
(go test -json -count=1 ./... > "$OUT/go-unit.gojson"; rc=$?; \
  "$PY" - "$OUT/go-unit.gojson" <<'PYEOF'
import json, sys
for line in open(sys.argv[1], errors="replace"):
    try: ev = json.loads(line)
    except ValueError: continue
    if ev.get("Action") == "fail" and ev.get("Test"): print("FAIL", ev["Package"], ev["Test"])
    if ev.get("Action") == "output" and ("FAIL" in ev.get("Output", "") or "panic" in ev.get("Output", "")): print(ev["Output"], end="")
PYEOF
  exit $rc) || status=1
# A short fuzz run of every Fuzz target of the module, found anew each time (the module's
# packages whose tests declare one, then `go test -list`), so new targets join by themselves.
# A failure fails the step; go keeps the failing input under <package>/testdata/fuzz/<target>/
# (a regression case from then on). Minimizing each new interesting input (60 s by default)
# would take the whole run of a target with large inputs: 100 runs are enough here.
# The budget is a count of runs (2-4 s each here), not a duration: with a duration, Go's fuzz
# coordinator (go1.26) can report "context deadline exceeded" at the deadline with no failing
# input (golang/go#75804, fixed in go1.27); a count has no deadline to race.
# collectors/probes/README.md says how to run one longer.
FUZZ_RUNS=30000x
go list -f '{{.ImportPath}} {{.Dir}}' ./... | while read -r pkg dir; do
  grep -qs '^func Fuzz' "$dir"/*_test.go || continue
  for name in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz'); do
    log="$OUT/fuzz-${pkg//\//_}-${name}.log"
    start=$SECONDS
    if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZ_RUNS" -fuzzminimizetime 100x "$pkg" > "$log" 2>&1; then
      echo "fuzz $pkg $name: ok ($FUZZ_RUNS runs, $((SECONDS - start))s)"
    else
      echo "FAIL fuzz $pkg $name (the failing input is kept in ${dir#"$ROOT"/}/testdata/fuzz/$name/):"; tail -20 "$log"
      echo fail >> "$OUT/fuzz-failed"
    fi
  done
done
[ -e "$OUT/fuzz-failed" ] && status=1

step "Java unit tests (Maven Surefire)"
(cd flink-jobs && JAVA_HOME="$LONGHAUL_JAVA_HOME" mvn -B -q -Dstyle.color=never test) || status=1
cp flink-jobs/target/surefire-reports/TEST-*.xml "$OUT/" 2>/dev/null || true

step "Dashboard schema: regenerated from the pinned Grafana SDK types, must equal the committed one"
(cd dashboards/schema-tools && node generate.js "$OUT/dashboard.schema.json" >/dev/null \
  && cmp -s "$OUT/dashboard.schema.json" ../schema/dashboard.schema.json \
  && echo "dashboards/schema/dashboard.schema.json is up to date") \
  || { echo "FAIL dashboards/schema/dashboard.schema.json differs from its generator (cd dashboards/schema-tools && npm run schema)"; status=1; }

step "Python unit tests"
run "$PY" -m pytest -q ingest/tests tests/unit --junitxml="$OUT/pytest-unit.xml"

step "Integration tests on the native stack"
# The tests run their own Flink jobs, each under its name: the production job (scripts/stack/job.sh)
# would read the same topics and raise every event a second time.
export LONGHAUL_JOB_KEEP=0
# Alertmanager's timings, short so that the alerting tests (which read them back) wait seconds:
# the first mail of a group after 5 s, a changed group after 15 s, the bridge re-posting every 15 s.
# (set outright: lib.sh above has already given them defaults.env's production values)
export LONGHAUL_ALERT_GROUP_WAIT=5s LONGHAUL_ALERT_GROUP_INTERVAL=15s LONGHAUL_ALERT_BRIDGE_ARGS="--repost 15s"
# A third task slot: the session's mesh job (tests/integration/conftest.py, mesh_run) holds one
# while test_rescale runs its job at parallelism 2 (set outright, like the timings above).
export LONGHAUL_FLINK_TASK_SLOTS=3
started_here=0
if ! bash scripts/stack/status.sh >/dev/null 2>&1; then
  started_here=1
  bash scripts/stack/up.sh || { status=1; echo "native stack failed to start"; }
fi
trap '[ "$started_here" = 1 ] && bash "$ROOT/scripts/stack/down.sh"' EXIT
if bash scripts/stack/status.sh; then
  bash scripts/build-flink.sh || status=1
  export LONGHAUL_STACK_DIR  # LONGHAUL_KAFKA, _INFLUX, _INFLUX_DB, _FLINK: scripts/stack/defaults.env
  # The tests produce to and read from every topic: they are Kafka's admin user (a super user);
  # what each role may not do is tested with that role's own credentials.
  export LONGHAUL_KAFKA_USER=admin LONGHAUL_KAFKA_PASSWORD_FILE="$LONGHAUL_SECRETS_DIR/kafka-admin.password"
  (go test -json -count=1 -timeout 25m -tags integration -run Integration ./... > "$OUT/go-integration.gojson" || { grep -h "\"Action\":\"fail\"" "$OUT/go-integration.gojson" | head -20; exit 1; }) || status=1
  run "$PY" -m pytest -q tests/integration --junitxml="$OUT/pytest-integration.xml"
  (cd flink-jobs && JAVA_HOME="$LONGHAUL_JAVA_HOME" mvn -B -q -Dstyle.color=never verify -Pintegration -Dtest=NoUnitTestsHere -Dsurefire.failIfNoSpecifiedTests=false) || status=1
  cp flink-jobs/target/failsafe-reports/TEST-*.xml "$OUT/" 2>/dev/null || true
  step "End-to-end scenarios on the namespace testbed (real agents, Kafka, Flink, Telegraf, InfluxDB; ~25 min with detection at production cadence)"
  run "$PY" -m pytest -q tests/e2e --junitxml="$OUT/pytest-e2e.xml"
else
  status=1
fi
# the default stack's memory back before the next one starts (this machine runs one at a time)
if [ "$started_here" = 1 ]; then bash scripts/stack/down.sh; started_here=0; fi

step "Scaled out: 3 Kafka brokers (one killed -9 during the testbed story), 2 TaskManagers, JobManager HA (~12 min)"
run bash scripts/test-cluster.sh

step "Summary"
"$PY" scripts/test-summary.py "$OUT" || status=1
exit $status
