#!/usr/bin/env bash
# make bench: performance figures of Longhaul on this machine (not part of make test).
# Starts the native stack if needed, builds the generator and the fleet simulator, runs every
# benchmark of bench/ and the publisher's Go benchmarks, prints each figure (RESULT lines, JSON)
# and keeps them in .stack/run/bench/results-<time>.txt. Figures and their commands:
# docs/benchmarks.md.
# BENCH_ONLY="machine throughput hotpath scaleout objectreuse latency sites telegraf relay paths detection incidents alerting parsers psbridge backfill fleet knee views agent publish security cluster" selects some.
# BENCH_SHORT=1 (make bench-short, which CI runs after make test): every benchmark once at a small
# size, so none rots (figures printed, not judged; about 20 minutes); the ones that only repeat
# another's code with other arguments (profile, scaleout, objectreuse, sites, knee) and the ones that
# start a stack of their own (security, cluster) are left out.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/scripts/stack/lib.sh"
export PATH="/usr/local/go/bin:$PATH"
PY="$ROOT/.venv/bin/python"
SHORT="${BENCH_SHORT:-0}"
ALL="machine throughput profile hotpath scaleout objectreuse latency sites telegraf relay paths detection incidents alerting parsers psbridge backfill fleet knee views agent publish security cluster"
[ "$SHORT" = 1 ] && ALL="machine throughput hotpath latency telegraf relay paths detection incidents alerting parsers psbridge backfill fleet views agent publish"
ONLY="${BENCH_ONLY:-$ALL}"
# The benchmarks produce to and read every topic: Kafka's admin user, as the tests are.
# the tests' own clients: SCRAM user admin, which this stack's brokers make a super user
export LONGHAUL_KAFKA_TEST_SUPER_USER=admin
export LONGHAUL_KAFKA_USER=admin LONGHAUL_KAFKA_PASSWORD_FILE="$LONGHAUL_SECRETS_DIR/kafka-admin.password"
OUT="$ROOT/.stack/run/bench"; mkdir -p "$OUT"
LOG="$OUT/results-$(date -u +%Y%m%dT%H%M%SZ).txt"
want() { [[ " $ONLY " == *" $1 "* ]]; }
# sz FULL SHORT: the figure's size in a full run, or in a short one
sz() { if [ "$SHORT" = 1 ]; then echo "$2"; else echo "$1"; fi; }
say() { echo "$*" | tee -a "$LOG"; }

(cd "$ROOT" && go build -o "$ROOT/bin/longhaul-bench-gen" ./bench/gen && go build -o "$ROOT/bin/longhaul-fleet" ./bench/fleet)
load_services
if [ "$SHORT" = 1 ]; then
  # A stack this run starts holds alerts as briefly as the tests' stack (scripts/test-all.sh), so
  # the alerting figure waits seconds, not LONGHAUL_ALERT_LINK_GROUP_WAIT's 3 minutes twice;
  # bench/alerting.py reads the timings of the running stack either way.
  export LONGHAUL_ALERT_GROUP_WAIT=5s LONGHAUL_ALERT_LINK_GROUP_WAIT=5s LONGHAUL_ALERT_GROUP_INTERVAL=15s
fi
flink_get /overview >/dev/null 2>&1 || bash "$ROOT/scripts/stack/up.sh"
test_super_user_ready || die "the running stack lists no topic to the benchmarks' Kafka user ${LONGHAUL_KAFKA_TEST_SUPER_USER}: \
it was started without LONGHAUL_KAFKA_TEST_SUPER_USER (make up, make demo); make down, then make bench starts its own"

if want machine; then
  say "== machine"
  say "RESULT $(jq -cn --arg nproc "$(nproc)" --arg cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" \
    --arg mem "$(free -g | awk '/Mem:/ {print $2 " GiB"}')" --arg os "$(. /etc/os-release; echo "$PRETTY_NAME")" \
    --arg go "$(go version | awk '{print $3}')" --arg java "$("$LONGHAUL_JAVA_HOME/bin/java" -version 2>&1 | head -1)" \
    --arg flink "$LONGHAUL_FLINK_VERSION" --arg kafka "$LONGHAUL_KAFKA_VERSION" --arg influx "$LONGHAUL_INFLUXDB_VERSION" \
    --arg tm "$LONGHAUL_FLINK_TM_PROCESS_SIZE" --arg slots "$LONGHAUL_FLINK_TASK_SLOTS" \
    '{figure:"machine",nproc:$nproc,cpu:$cpu,memory:$mem,os:$os,go:$go,java:$java,flink:$flink,kafka:$kafka,influxdb:$influx,flink_tm_process:$tm,slots:$slots}')"
fi
# 180 steps = 2.04 M records, 300 steps = 3.4 M: long enough that the JIT warm-up of a freshly
# submitted job (C2 at ~50 % of a core in its first seconds) does not dominate the rate.
if want throughput; then
  runs=$(sz 3 1) steps=$(sz 300 150)
  for i in $(seq "$runs"); do
    say "== Flink throughput, run $i of $runs (1 partition, parallelism 1): $PY bench/flink_throughput.py --partitions 1 --parallelism 1 --steps $steps"
    "$PY" "$ROOT/bench/flink_throughput.py" --partitions 1 --parallelism 1 --steps "$steps" | tee -a "$LOG"
  done
  # the job's own rate: its sinks (Telegraf, InfluxDB's writes) stopped while it reads, as where
  # they have machines of their own; 600 steps (6.8 M records) for a JIT warmed as a running job's
  steps=$(sz 600 150)
  say "== Flink throughput, its sinks stopped: $PY bench/flink_throughput.py --partitions 1 --parallelism 1 --steps $steps --sinks stopped"
  "$PY" "$ROOT/bench/flink_throughput.py" --partitions 1 --parallelism 1 --steps "$steps" --sinks stopped | tee -a "$LOG"
fi
if want profile; then
  say "== Flink throughput with a JFR profile: $PY bench/flink_throughput.py --partitions 1 --parallelism 1 --steps 180 --profile 15"
  "$PY" "$ROOT/bench/flink_throughput.py" --partitions 1 --parallelism 1 --steps 180 --profile 15 | tee -a "$LOG"
fi
if want hotpath; then
  say "== hot path, CPU per message by stage: bash bench/hotpath.sh $(sz 30 3)"
  bash "$ROOT/bench/hotpath.sh" "$(sz 30 3)" | tee -a "$LOG"
fi
if want scaleout; then
  for p in 1 2; do for n in 1 4; do
    say "== scale-out: $PY bench/flink_throughput.py --partitions $n --parallelism $p --steps 180"
    "$PY" "$ROOT/bench/flink_throughput.py" --partitions "$n" --parallelism "$p" --steps 180 | tee -a "$LOG"
  done; done
fi
if want objectreuse; then
  say "== without object reuse: $PY bench/flink_throughput.py --partitions 1 --parallelism 1 --steps 180 --job-args '--object-reuse false'"
  "$PY" "$ROOT/bench/flink_throughput.py" --partitions 1 --parallelism 1 --steps 180 --job-args "--object-reuse false" | tee -a "$LOG"
fi
if want latency; then
  for links in $(sz "10000 1000" 1000); do
    say "== end-to-end latency: $PY bench/latency.py --rate $(sz 10000 2000) --links $links --duration $(sz 240 150)"
    "$PY" "$ROOT/bench/latency.py" --rate "$(sz 10000 2000)" --links "$links" --duration "$(sz 240 150)" | tee -a "$LOG"
  done
fi
# per-site topics (issue 33): the same links as one topic's (4 partitions) or spread over 200
# agents' own topics (one partition each, 400 topics), alternating; then the end-to-end latency
if want sites; then
  for sites in 0 200 0 200; do
    say "== own topics: $PY bench/flink_throughput.py --partitions 4 --parallelism 1 --steps 180 --sites $sites"
    "$PY" "$ROOT/bench/flink_throughput.py" --partitions 4 --parallelism 1 --steps 180 --sites "$sites" | tee -a "$LOG"
  done
  # at a rate this machine holds (10k samples/s saturates it either way), long enough for the
  # steady_* figures to follow the job's start-up catch-up (docs/benchmarks.md, Per-site topics)
  for sites in 0 200; do
    say "== own topics, latency: $PY bench/latency.py --rate 3000 --links 10000 --duration 300 --sites $sites"
    "$PY" "$ROOT/bench/latency.py" --rate 3000 --links 10000 --duration 300 --sites "$sites" | tee -a "$LOG"
  done
fi
if want paths; then
  say "== Telegraf's traces into InfluxDB: $PY bench/telegraf_paths.py --traces $(sz 10000 2000)"
  "$PY" "$ROOT/bench/telegraf_paths.py" --traces "$(sz 10000 2000)" | tee -a "$LOG"
fi
if want relay; then
  say "== InfluxDB's HTTP relay out of its namespace: $PY bench/influx_relay.py --batches $(sz 20 5) --points 10000 --rounds $(sz 3 1)"
  "$PY" "$ROOT/bench/influx_relay.py" --batches "$(sz 20 5)" --points 10000 --rounds "$(sz 3 1)" | tee -a "$LOG"
fi
if want telegraf; then
  say "== Telegraf burst drain: $PY bench/telegraf_burst.py --links $(sz 20000 2000) --repeat $(sz 5 1)"
  "$PY" "$ROOT/bench/telegraf_burst.py" --links "$(sz 20000 2000)" --repeat "$(sz 5 1)" | tee -a "$LOG"
fi
if want alerting; then
  say "== alerting: $PY bench/alerting.py --latency $(sz 20 3) --burst $(sz 5000 200) (group_wait as the stack runs it)"
  "$PY" "$ROOT/bench/alerting.py" --latency "$(sz 20 3)" --burst "$(sz 5000 200)" | tee -a "$LOG"
fi
if want parsers; then
  say "== parsers: go test -run '^\$' -bench Parse -benchtime $(sz 2s 20x) ./probes/..."
  (cd "$ROOT" && go test -run '^$' -bench Parse -benchtime "$(sz 2s 20x)" ./probes/...) | tee -a "$LOG"
fi
if want psbridge; then
  say "== pScheduler bridge, who posted: go test -run '^\$' -bench Identify -benchtime $(sz 2s 200x) ./perfsonar/psbridge/"
  (cd "$ROOT" && go test -run '^$' -bench Identify -benchtime "$(sz 2s 200x)" ./perfsonar/psbridge/) | tee -a "$LOG"
  say "== pScheduler bridge, a result's samples: go test -run '^\$' -bench ConvertAndEncode -benchtime $(sz 2s 200x) ./collectors/agent/"
  (cd "$ROOT" && go test -run '^$' -bench ConvertAndEncode -benchtime "$(sz 2s 200x)" ./collectors/agent/) | tee -a "$LOG"
  for run in $(seq "$(sz 3 1)"); do
    say "== pScheduler bridge (run $run of $(sz 3 1)): $PY bench/psbridge.py --results $(sz 3000 300) --clients 4"
    "$PY" "$ROOT/bench/psbridge.py" --results "$(sz 3000 300)" --clients 4 | tee -a "$LOG"
  done
fi
if want backfill; then
  for run in $(seq "$(sz 3 1)"); do
    say "== backfill (run $run of $(sz 3 1)): $PY bench/backfill.py --records $(sz 30000 3000)"
    "$PY" "$ROOT/bench/backfill.py" --records "$(sz 30000 3000)" | tee -a "$LOG"
  done
fi
if want detection; then
  args="--links $(sz 200 20) --probe-interval $(sz 10 5) --collapse-links $(sz 20 2) --collapse-after $(sz 140 70) --duration $(sz 200 100)"
  say "== detection delay: $PY bench/detection.py $args"
  # shellcheck disable=SC2086  # the arguments are words
  "$PY" "$ROOT/bench/detection.py" $args | tee -a "$LOG"
fi
if want incidents; then
  for seed in $(seq "$(sz 3 1)"); do
    say "== incident localisation, seed $seed: bash scripts/flink-test-main.sh -Xmx6g org.longhaul.flink.bench.IncidentBench $(sz "40 25 12" "10 5 3") $seed"
    # shellcheck disable=SC2046  # the sizes are three words
    bash "$ROOT/scripts/flink-test-main.sh" -Xmx6g org.longhaul.flink.bench.IncidentBench $(sz "40 25 12" "10 5 3") "$seed" 2>/dev/null | grep '^RESULT' | tee -a "$LOG"
  done
fi
if want fleet; then
  args="--hosts $(sz 250 30) --mesh 30 --duration $(sz 900 90) --settle $(sz 240 60) --drain $(sz 90 30)"
  # a full run also degrades a carrier hop under the first mesh's half (15 × 15 links) 5 min in:
  # the job must open one incident naming the hop
  [ "$SHORT" = 1 ] || args="$args --fault carrier:10.255.0.1@+5m:#0-14>#15-29:+40ms,5%"
  say "== the fleet at WLCG's shape through one bridge: $PY bench/fleet.py $args"
  # shellcheck disable=SC2086  # the arguments are words
  "$PY" "$ROOT/bench/fleet.py" $args | tee -a "$LOG"
fi
# The knee: the fleet at growing sizes (KNEE_HOSTS, WLCG's cadence, 10 minutes each) until the first
# this machine does not hold (bench/fleet_verdict.py: something lost, stale, or the job behind);
# each size's RESULT says why, and what the stack and the bridge cost in cores. KNEE_MAX_CONCURRENT:
# the bridge's admission (pscheduler_bridge.max_concurrent; default the bridge's own). KNEE_PARALLEL:
# the connections each host keeps (default 25, pScheduler's archiver pool, or fewer where the
# open-files limit cannot hold 25 × hosts: bench/fleet.py's parallel_for). KNEE_BRIDGES: bridges
# behind the fleet's one name (default 1), each host posting to one of them. The default sizes go
# from the largest held a size before the public fleet's 2,400 (held here since 2026-12-07) to one
# beyond it.
if want knee; then
  knee_args="--mesh 30 --duration 600 --settle 180 --drain 60${KNEE_MAX_CONCURRENT:+ --max-concurrent $KNEE_MAX_CONCURRENT}"
  knee_args+="${KNEE_PARALLEL:+ --parallel $KNEE_PARALLEL}${KNEE_BRIDGES:+ --bridges $KNEE_BRIDGES}"
  for h in ${KNEE_HOSTS:-2000 2400 2800}; do
    say "== the knee, $h hosts: $PY bench/fleet.py --hosts $h $knee_args"
    # shellcheck disable=SC2086  # the arguments are words
    line="$("$PY" "$ROOT/bench/fleet.py" --hosts "$h" $knee_args | tee -a "$LOG" | grep '^RESULT ' | tail -n 1)"
    verdict="$(jq -c '.verdict' <<<"${line#RESULT }")"
    held="$(jq -r '.holds' <<<"$verdict")"
    say "knee: $h hosts $([ "$held" = true ] && echo held || echo not held): $verdict"
    [ "$held" = true ] || break
  done
fi
# The fleet's views: a day of statistics of 500 hosts in meshes of 30 (14,300 links) in a database of
# its own, then the Mesh overview's queries and `longhaul report`, for all links and for one site.
if want views; then
  say "== the views at fleet size: $PY bench/views.py --hosts $(sz 500 60) --repeat $(sz 3 1)"
  "$PY" "$ROOT/bench/views.py" --hosts "$(sz 500 60)" --repeat "$(sz 3 1)" | tee -a "$LOG"
fi
if want agent; then
  say "== agent idle cost: bash bench/agent_cost.sh $(sz "20 60" "5 10")"
  # shellcheck disable=SC2046  # the sizes are two words
  bash "$ROOT/bench/agent_cost.sh" $(sz "20 60" "5 10") | tee -a "$LOG"
fi
if want publish; then
  say "== publish rate: go test -tags integration -run XXX -bench PublishRate -benchtime $(sz 50000x 5000x) ./collectors/publish"
  (cd "$ROOT" && go test -tags integration -run XXX -bench PublishRate -benchtime "$(sz 50000x 5000x)" ./collectors/publish) 2>&1 \
    | grep -E "Benchmark|ok|FAIL" | tee -a "$LOG"
fi
if want security; then
  say "== what security costs the job: bash bench/security_cost.sh 180 (TLS + SCRAM, then a plaintext stack of its own)"
  bash "$ROOT/bench/security_cost.sh" 180 | tee -a "$LOG"
fi
# The fleet on the scaled-out stack (3 brokers, 2 TaskManagers, 2 JobManagers in ZooKeeper HA, the
# job at parallelism 2: scripts/test-cluster.sh's, a stack of its own), broker 2 killed -9 mid-run:
# nothing lost, the statistics still fresh. The default stack is stopped first: the two would share
# the 2 cores (and make bench starts it again at its next run).
if want cluster; then
  args="--hosts ${CLUSTER_HOSTS:-250} --mesh 30 --duration 300 --settle 120 --drain 60 --kill-broker 2@150"
  say "== the fleet on the scaled-out stack: bash scripts/test-cluster.sh fleet $args"
  bash "$ROOT/scripts/stack/down.sh"
  # shellcheck disable=SC2086  # the arguments are words
  bash "$ROOT/scripts/test-cluster.sh" fleet $args 2>&1 | tee -a "$LOG"
fi
say "results: $LOG"
