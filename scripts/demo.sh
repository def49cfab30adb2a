#!/usr/bin/env bash
# make demo: the whole system on an emulated long-haul testbed, with a scripted story.
#   1. the native stack (Kafka, Flink, InfluxDB, Telegraf) and the Flink job
#   2. the testbed: a sender, a router and two receivers in network namespaces, shaped links
#   3. longhaul-probe on the sender, probing both receivers (iperf3, traceroute, ping)
#   4. a story: healthy mesh → throughput collapse on dst-b and a firewall on dst-a → recovery,
#      with every event printed as Flink raises it
# It leaves everything running; `make demo-down` removes the testbed and the agent.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
source scripts/stack/lib.sh
DEMO="$LONGHAUL_STACK_DIR/run/demo"
HEALTHY_S="${LONGHAUL_DEMO_HEALTHY_S:-120}"
FAULT_S="${LONGHAUL_DEMO_FAULT_S:-120}"
RECOVER_S="${LONGHAUL_DEMO_RECOVER_S:-90}"
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
mkdir -p "$DEMO"

say "1/5 native stack"
bash scripts/stack/up.sh
bash scripts/submit-job.sh longhaul-demo --out-of-orderness 20s --idleness 10s --checkpoint-interval 2s \
  --collapse.min-history 5

say "2/5 testbed: sender-1 → router → dst-a (100 Mbit/s), dst-b (40 Mbit/s)"
bash tests/testbed/testbed.sh up

say "3/5 longhaul-probe on sender-1 (health: http://127.0.0.1:9273/health, log $DEMO/agent.log)"
bash scripts/demo-down.sh agent-only
setsid nohup bin/longhaul-probe run --config tests/testbed/demo-mesh.yaml >"$DEMO/agent.log" 2>&1 &
echo $! >"$DEMO/agent.pid"
setsid nohup bin/longhaul tail --since 1s --stats >"$DEMO/results.log" 2>&1 &
echo $! >"$DEMO/tail.pid"
show_results() { # print what arrived since the last call
  local n; n=$(wc -l <"$DEMO/results.log")
  sed -n "$(( ${SHOWN:-0} + 1 )),${n}p" "$DEMO/results.log"
  SHOWN=$n
}
wait_phase() { # seconds label
  local end=$(( $(date +%s) + $1 ))
  while [ "$(date +%s)" -lt "$end" ]; do
    sleep 10
    show_results
    printf '   [%s: %ss left; spool %s]\n' "$2" $(( end - $(date +%s) )) \
      "$(curl -fsS http://127.0.0.1:9273/health 2>/dev/null | jq -c '{depth: .spool.depth_samples, dropped: .spool.dropped_total}' 2>/dev/null || echo '?')"
  done
}

say "4/5 the story"
echo "-- healthy mesh for ${HEALTHY_S}s: each link learns its own baseline"
wait_phase "$HEALTHY_S" healthy
echo "-- fault: dst-b's link collapses to 2 Mbit/s; dst-a's firewall refuses the iperf port"
bash tests/testbed/testbed.sh rate b 2mbit
bash tests/testbed/testbed.sh block a
wait_phase "$FAULT_S" faults
echo "-- recovery: both links healed"
bash tests/testbed/testbed.sh heal
wait_phase "$RECOVER_S" recovery

say "5/5 what happened"
grep -E 'CRITICAL|WARNING|INFO' "$DEMO/results.log" || echo "(no events)"
cat <<EOT

The stack, the Flink job and the agent keep running.
  bin/longhaul tail --since 15m          events as they are raised (add --stats for link statistics)
  make status                            services, PIDs, ports, RSS
  curl -s 'http://127.0.0.1:$LONGHAUL_INFLUX_PORT/query?db=longhaul' --data-urlencode 'q=SELECT * FROM "daily"."events" ORDER BY time DESC LIMIT 10'
  Flink UI: http://127.0.0.1:$LONGHAUL_FLINK_REST_PORT    Grafana (with Docker): docker compose up -d grafana
  make demo-down                         remove the testbed and the agent;  make down  stops the services
EOT
