#!/usr/bin/env bash
# Runs the tests of one or more tiers, in this order, and ends with one "N passed, N failed" line
# across all languages, each stage's time and the 15 slowest tests (scripts/test-summary.py).
#   scripts/test-all.sh                  every tier: make test
#   scripts/test-all.sh go java ...      those tiers only: make test-go, make test-java, ...
# Tiers: lint (make check's formatters, linters and generated files), go (unit tests, the fuzz
# targets on their committed corpora), java (unit tests; builds the job jar),
# python (unit tests), integration (Go, Python and Java against the real native stack), e2e (the
# namespace testbed's stories on that stack), install (the packages: lintian, rpmlint, and the
# agent's .deb installed, upgraded and purged on a clean Debian 12 booted with systemd, publishing
# to that stack), cluster (3 brokers, 2 TaskManagers, JobManager HA).
# integration, e2e and install share one default stack, started here unless one runs (and then stopped),
# and the Go integration tests that need no stack begin with the run. With every tier (make test),
# what judges no time runs niced beside the stories that do (every_tier, below); with some, the
# cluster tier (its stack of its own, then its stories) runs beside the install tier. Stages beside
# others overlap: their times add up to more than the run's wall time, which the summary gives too.
# shellcheck disable=SC2317  # the tiers and stages are called by name ("tier_$t", stage NAME FUNCTION)
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT" || exit 1
source scripts/stack/lib.sh
OUT="$ROOT/tests/out"
rm -rf "$OUT" && mkdir -p "$OUT"
export PATH="/usr/local/go/bin:$PATH"
PY="$ROOT/.venv/bin/python"
TIERS=(lint go java python integration e2e install cluster)
status=0
started_here=0 # the default stack was started by this run (and is stopped by it)
stack_ready=0

# cpu_ticks: the machine's busy and total CPU ticks so far (/proc/stat: idle and iowait are not busy)
cpu_ticks() {
  local _ user nice system idle iowait rest
  read -r _ user nice system idle iowait rest </proc/stat
  local total=$((user + nice + system + idle + iowait)) r
  for r in $rest; do total=$((total + r)); done
  echo "$((total - idle - iowait)) $total"
}

# stage NAME COMMAND...: runs one stage, records its time and how busy the machine's CPUs were
# meanwhile (every process's, not the stage's alone) in $OUT/stages.tsv, fails the run if it fails
stage() {
  local name="$1" t0=$SECONDS rc busy0 total0 busy1 total1
  shift
  read -r busy0 total0 < <(cpu_ticks)
  printf '\n=== %s\n' "$name"
  "$@"
  rc=$?
  read -r busy1 total1 < <(cpu_ticks)
  printf '%s\t%d\t%s\t%d\n' "$name" $((SECONDS - t0)) "$([ "$rc" = 0 ] && echo ok || echo FAILED)" \
    $((100 * (busy1 - busy0) / (total1 - total0 > 0 ? total1 - total0 : 1))) >>"$OUT/stages.tsv"
  [ "$rc" = 0 ] || status=1
}

# stage_begin KEY NAME COMMAND...: runs a stage in the background, beside the ones that follow (its
# own time recorded when it ends, its output kept in $OUT/KEY.log); stage_end KEY waits for it,
# prints that output and fails the run if it failed. For stages that mostly wait (on brokers of
# their own, on a stack starting), where the CPU the others leave idle is enough.
declare -A BG_PID=()
stage_begin() {
  local key="$1"
  shift
  background "$key" stage "$@"
}

# background KEY COMMAND...: COMMAND (a function that runs stages) in a subshell in the background,
# its output in $OUT/KEY.log, its stages' failures its exit status (stage_end KEY reads both)
background() {
  local key="$1"
  shift
  (
    status=0
    exec >"$OUT/$key.log" 2>&1
    "$@"
    exit "$status"
  ) &
  BG_PID[$key]=$!
}

stage_end() {
  local key="$1" rc
  [ -n "${BG_PID[$key]:-}" ] || return 0
  wait "${BG_PID[$key]}"
  rc=$?
  unset "BG_PID[$key]"
  cat "$OUT/$key.log"
  [ "$rc" = 0 ] || status=1
  return "$rc"
}

# --- lint -----------------------------------------------------------------------------------------
# make check's stages that are not tests (those run in the tiers below): CI fails on them too
tier_lint() {
  stage "Formatters, linters, generated files (scripts/check.sh)" \
    bash scripts/check.sh gofmt vet staticcheck contract deploy ruff shellcheck dashboards
  stage "google-java-format (Spotless)" java_format
}

java_format() {
  (cd flink-jobs && JAVA_HOME="$LONGHAUL_JAVA_HOME" mvn -B -q -Dstyle.color=never spotless:check)
}

# --- go -----------------------------------------------------------------------------------------
go_unit() {
  go test -json -count=1 ./... >"$OUT/go-unit.gojson"
  local rc=$?
  "$PY" scripts/test-summary.py --failures "$OUT/go-unit.gojson"
  return "$rc"
}

# The fuzz targets run here on their committed corpora (golden cases, testdata/fuzz/): a gate that
# cannot fail on a random draw. Exploration is make fuzz (scripts/fuzz.sh).
tier_go() {
  stage "Go unit tests (agent, operator CLI, testbed delay line, benchmarks generator; fuzz corpora)" go_unit
}

# --- java ---------------------------------------------------------------------------------------
# One Maven run: compile (warnings are errors), the unit tests, the shaded job jar, which
# build-flink.sh copies to bin/ (it packages without the tests only if this run could not).
java_unit() {
  (cd flink-jobs && JAVA_HOME="$LONGHAUL_JAVA_HOME" mvn -B -q -Dstyle.color=never \
    -Dmaven.test.redirectTestOutputToFile=true package)
  local rc=$?
  cp flink-jobs/target/surefire-reports/TEST-*.xml "$OUT/" 2>/dev/null
  bash scripts/build-flink.sh || rc=1
  return "$rc"
}

tier_java() {
  stage "Java unit tests (Maven Surefire) and the job jar" java_unit
}

# --- python -------------------------------------------------------------------------------------
tier_python() {
  stage "Python unit tests" "$PY" -m pytest -q ingest/tests tests/unit --junitxml="$OUT/pytest-unit.xml"
}

# --- the default stack (integration, e2e) -------------------------------------------------------
stack_env() {
  # The tests run their own Flink jobs, each under its name: the production job (scripts/stack/job.sh)
  # would read the same topics and raise every event a second time.
  export LONGHAUL_JOB_KEEP=0
  # Alertmanager's timings, short so that the alerting tests (which read them back) wait seconds:
  # the first mail of a group after 5 s, a changed group after 15 s, the bridge re-posting every 15 s.
  # (set outright: lib.sh above has already given them defaults.env's production values)
  export LONGHAUL_ALERT_GROUP_WAIT=5s LONGHAUL_ALERT_LINK_GROUP_WAIT=5s LONGHAUL_ALERT_GROUP_INTERVAL=15s LONGHAUL_ALERT_BRIDGE_ARGS="--repost 15s"
  # A third task slot: the session's mesh job (tests/integration/conftest.py, mesh_run) holds one
  # while test_rescale runs its job at parallelism 2 (set outright, like the timings above).
  export LONGHAUL_FLINK_TASK_SLOTS=3
  export LONGHAUL_STACK_DIR # LONGHAUL_KAFKA, _INFLUX, _INFLUX_DB, _FLINK: scripts/stack/defaults.env
  # The tests produce to and read from every topic: they are the SCRAM user admin, which this
  # stack's brokers (only a test stack's) make a super user; what each role may not do is tested
  # with that role's own credentials.
  export LONGHAUL_KAFKA_TEST_SUPER_USER=admin
  export LONGHAUL_KAFKA_USER=admin LONGHAUL_KAFKA_PASSWORD_FILE="$LONGHAUL_SECRETS_DIR/kafka-admin.password"
}

# stack_fits_tests: the running stack is the one the tests need (stack_env): their super user,
# their Alertmanager timings and task slots, and no production job, which would raise every
# event of the tests' links a second time and hold a slot. One that `make demo`, `make up` or
# `make bench` left running is not (after make bench then make demo, such a stack failed 11
# integration tests: no slot for their jobs, mails after the demo's 2-minute group_wait).
stack_fits_tests() {
  local run="$LONGHAUL_STACK_DIR/run"
  load_services
  test_super_user_ready &&
    grep -qx "  group_wait: ${LONGHAUL_ALERT_GROUP_WAIT}" "$run/alertmanager/alertmanager.yml" 2>/dev/null &&
    grep -qx "  numberOfTaskSlots: ${LONGHAUL_FLINK_TASK_SLOTS}" "$run/flink/conf/config.yaml" 2>/dev/null &&
    [ -z "$(job_overview_line 2>/dev/null)" ]
}

stack_up() {
  if bash scripts/stack/status.sh >/dev/null 2>&1 && ! stack_fits_tests; then
    echo "the running stack is not the tests' (their super user, timings, slots, no production job): restarting it"
    bash scripts/stack/down.sh
  fi
  if ! bash scripts/stack/status.sh >/dev/null 2>&1; then
    started_here=1
    bash scripts/stack/up.sh || { echo "native stack failed to start"; return 1; }
  fi
  bash scripts/stack/status.sh
}

# need_stack: the default stack, started once for the tiers that need it
need_stack() {
  stack_env
  [ "$stack_ready" = 1 ] && return 0
  stage "Native stack up (Kafka, Flink, InfluxDB, Telegraf, Alertmanager)" stack_up
  bash scripts/stack/status.sh >/dev/null 2>&1 || return 1
  stop_leftover_testbeds
  stack_ready=1
}

# A testbed left running (make demo's, or a story's killed midway) is supervised by the stack, so
# its agents come back with it and write into the Kafka the stories read: make demo's agents
# measure lab-s2 → dst-c healthily while a story blocks dst-c. The tests remove it first.
stop_leftover_testbeds() {
  local f p
  for f in "$LONGHAUL_STACK_DIR"/run/supervisor/programs/tb-*-agent-*.conf; do
    [ -e "$f" ] || continue
    p="${f##*/tb-}" && p="${p%%-agent-*}"
    echo "a testbed ($p) was left running and would write into the tests' Kafka: removing it (make demo makes the demo's again)"
    LONGHAUL_TESTBED_PREFIX="$p" bash tests/testbed/testbed.sh down
  done
}

stack_down() {
  if [ "$started_here" = 1 ]; then bash scripts/stack/down.sh; fi
  started_here=0 stack_ready=0
}

# The Go integration tests of the packages under operator/ (the watchdog's) read the native stack's
# Kafka, InfluxDB and Flink. Every other package's bring up what they need: the agent's tests each
# wait on a private broker of their own (a minute down, a spool drained; ports 19092 and up), the
# probes' on a loopback iperf3. Those start with the run, beside the lint and unit tiers and the
# stack's start, which leave CPU idle while they wait (186 s of them in a row, 2026-12-05): five
# side by side (-parallel 5, not GOMAXPROCS's 2) and three packages at once (-p 3). 5 brokers of
# 384 MB heap.
go_integration() {
  local name="$1"
  shift
  go test -json -count=1 -timeout 25m -tags integration -p 3 -parallel 5 -run Integration "$@" >"$OUT/$name.gojson"
  local rc=$?
  "$PY" scripts/test-summary.py --failures "$OUT/$name.gojson"
  return "$rc"
}

go_integration_own_brokers() {
  local pkgs
  pkgs="$(go list -tags integration ./... | grep -v '^longhaul/operator/')" || return
  # shellcheck disable=SC2086  # one package a word
  go_integration go-integration $pkgs
}

go_integration_stack() {
  go_integration go-integration-stack ./operator/...
}

# The job's integration tests against target/classes and the jar the java tier (or make build)
# packaged: failsafe's goals alone, without packaging again.
java_integration() {
  (cd flink-jobs && JAVA_HOME="$LONGHAUL_JAVA_HOME" mvn -B -q -Dstyle.color=never -Pintegration \
    -Dmaven.test.redirectTestOutputToFile=true test-compile failsafe:integration-test failsafe:verify)
  local rc=$?
  cp flink-jobs/target/failsafe-reports/TEST-*.xml "$OUT/" 2>/dev/null
  return "$rc"
}

tier_integration() {
  need_stack || { stage_end go-integration; return; }
  stage_end go-integration
  go_stack_stage
  python_integration_stage
  java_integration_stage
}

go_stack_stage() {
  stage "Go integration tests against the stack (the watchdog's)" go_integration_stack
}

python_integration_stage() {
  stage "Python integration tests" "$PY" -m pytest -q tests/integration --junitxml="$OUT/pytest-integration.xml"
}

java_integration_stage() {
  stage "Java integration tests (Maven Failsafe)" java_integration
}

install_stage() {
  stage "Packages on a clean Debian 12 (nspawn): install, samples to the stack, upgrade, remove, purge; lintian, rpmlint" \
    "$PY" -m pytest -q -s tests/install --junitxml="$OUT/pytest-install.xml"
}

tier_install() {
  need_stack || return
  case " ${tiers[*]} " in *" cluster "*) stage_begin cluster "$CLUSTER_STAGE" cluster_story ;; esac
  install_stage
}

tier_e2e() {
  need_stack || return
  stage "End-to-end scenarios on the namespace testbed (real agents, Kafka, Flink, Telegraf, InfluxDB)" \
    "$PY" -m pytest -q tests/e2e --junitxml="$OUT/pytest-e2e.xml"
}

# The cluster tier: its stack of its own (every port + 10000), then its stories. With the install
# tier, both run beside it (the install tier's waits are generous; it waits on apt and the
# mirror, the cluster's stack up on its services): 259 s of install, then 118 s of the cluster's
# start and 412 s of its stories, in a row until 2026-12-05.
CLUSTER_STAGE="Scaled out: 3 Kafka brokers (one killed -9 during the testbed story), 2 TaskManagers, JobManager HA"
cluster_story() {
  bash scripts/test-cluster.sh up && bash scripts/test-cluster.sh tests
}

tier_cluster() {
  # the default stack's CPU and memory go to the cluster's stories now; with the stories begun
  # beside the install tier, its shutdown runs beside them too (76 s at full load, 2026-12-06)
  if [ -n "${BG_PID[cluster]:-}" ]; then
    stack_down_beside stage_end cluster # begun beside the install tier
  else
    if [ "$started_here" = 1 ]; then stage "Native stack down" stack_down; fi
    stage "$CLUSTER_STAGE" cluster_story
  fi
}

# stack_down_beside COMMAND...: the default stack (if this run started it) stops in the
# background while COMMAND runs
stack_down_beside() {
  if [ "$started_here" = 1 ]; then stage_begin down "Native stack down" stack_down; fi
  "$@"
  stage_end down && started_here=0 stack_ready=0 # stack_down's own, set in its subshell
}

# on the way out (a tier failed, ^C): what still runs in the background ends first (a cluster
# stack still starting is then stopped)
background_leftovers() {
  local key
  for key in "${!BG_PID[@]}"; do wait "${BG_PID[$key]}"; done
  [ -z "${BG_PID[cluster]:-}" ] || bash scripts/test-cluster.sh down
}

# The install tier's Debian 12 roots (the booted machine's and the images' base), built while the
# tiers before it run: debootstrap waits on the mirror more than on the CPU (about 45 s each on a
# fresh machine, nothing once cached). The tier's own calls wait for these under the same locks.
prebuild_roots() {
  { bash scripts/debian-root.sh && bash scripts/debian-root.sh --base; } >"$OUT/debian-root.log" 2>&1 &
}

# --- make test: every tier ------------------------------------------------------------------------
# One tier after another, make test took 55 min (3,298 s, 2026-12-06), over its 45. Only the
# stories on the default stack judge time: the Python integration tests (alerts within a group
# wait, a broker's pause), the e2e stories, the cluster's; they run in the foreground, one at a
# time, the cluster's last (its stack of its own, as the default one stops). The linters run first,
# beside the Go tests on brokers of their own, as before. What else judges no time (the packages
# on Debian machines, which publish to the same stack; the Java unit and Failsafe tests; the Go and
# Python unit tests) runs one after another in the background from the moment the stack is up, at
# nice 19 and the lowest best-effort IO priority, on the CPU the stories leave idle (48 % of the
# Python integration tests' 889 s and 26 % of the e2e stories' 1,039 s, 2026-12-06). The job's
# jar is built before, by make build, and not replaced meanwhile (scripts/build-flink.sh).
every_tier() {
  local t
  prebuild_roots
  stage_begin go-integration "$GO_OWN_BROKERS_STAGE" go_integration_own_brokers
  tier_lint
  if ! need_stack; then # what needs no stack still runs, to be reported
    stage_end go-integration
    for t in go java python; do "tier_$t"; done
    return
  fi
  begin_niced niced install_stage tier_java java_integration_stage tier_go tier_python
  go_stack_stage
  stage_end go-integration # not niced: it ends before the Python integration tests begin
  python_integration_stage
  tier_e2e
  stage_end niced
  stack_down_beside stage "$CLUSTER_STAGE" cluster_story
}

# begin_niced KEY FUNCTION...: runs the functions (tiers, stages) one after another in the
# background at nice 19 and best-effort IO priority 7, beside the stages that follow; what they
# print goes to $OUT/KEY.log, which stage_end KEY prints (each stage records its own time).
begin_niced() {
  local key="$1"
  shift
  background "$key" niced "$@"
}

niced() {
  local f
  if ! renice -n 19 -p "$BASHPID" >/dev/null || ! ionice -c 2 -n 7 -p "$BASHPID"; then
    status=1
    return
  fi
  for f in "$@"; do "$f"; done
}

GO_OWN_BROKERS_STAGE="Go integration tests on brokers of their own (begun with the run)"

main() {
  local tiers=("$@") t start=$SECONDS
  [ "${#tiers[@]}" -gt 0 ] || tiers=("${TIERS[@]}")
  for t in "${tiers[@]}"; do
    declare -F "tier_$t" >/dev/null || { echo "test-all.sh: no tier $t (tiers: ${TIERS[*]})" >&2; exit 2; }
  done
  trap 'stack_down; background_leftovers' EXIT
  if [ "$#" = 0 ]; then
    every_tier
  else
    case " ${tiers[*]} " in *" install "*) prebuild_roots ;; esac
    case " ${tiers[*]} " in *" integration "*) stage_begin go-integration "$GO_OWN_BROKERS_STAGE" \
      go_integration_own_brokers ;; esac
    for t in "${tiers[@]}"; do "tier_$t"; done
  fi
  stack_down
  echo "$((SECONDS - start))" >"$OUT/wall_s"
  printf '\n=== Summary (%s; %d s)\n' "${tiers[*]}" $((SECONDS - start))
  "$PY" scripts/test-summary.py "$OUT" || status=1
  exit $status
}

main "$@"
