#!/usr/bin/env bash
# Agent cost: longhaul-probe with a 50-target mesh (throughput every 4h, path every 10m, rtt every
# 1m — the example config's schedule), targets in TEST-NET-1 (192.0.2.0/24, never answer), so the
# agent spends its time waiting, scheduling and spooling its probes' failure samples.
# CPU (utime+stime from /proc) and RSS over MEASURE seconds after WARMUP seconds.
# Prints one RESULT line. Usage: bench/agent_cost.sh [WARMUP] [MEASURE]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WARMUP="${1:-20}" MEASURE="${2:-60}"
dir=$(mktemp -d /tmp/longhaul-bench-agent.XXXX)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
# the agent's own Kafka user, as a site makes one
"$ROOT/bin/longhaul" admin add-agent bench-agent --password-file "$dir/kafka.password" >/dev/null
{
  echo "src: bench-agent"
  echo "kafka:"
  echo "  bootstrap: [${LONGHAUL_KAFKA:-127.0.0.1:9092}]"
  echo "  tls: {ca_file: ${LONGHAUL_KAFKA_CA}}"
  echo "  sasl: {user: agent-bench-agent, password_file: $dir/kafka.password}"
  echo "spool: {dir: $dir/spool}"
  echo "health: {listen: \"off\"}"
  echo "targets:"
  for i in $(seq 1 50); do echo "  - {name: bench-t$i, address: 192.0.2.$i}"; done
  echo "probes:"
  echo "  - {id: tput-tcp, kind: throughput, targets: all, interval: 4h, jitter: 1h, params: {duration: 10s}}"
  echo "  - {id: path, kind: path, targets: all, interval: 10m}"
  echo "  - {id: rtt, kind: rtt, targets: all, interval: 1m, jitter: 30s, params: {count: 10, interval: 1s}}"
} > "$dir/probe.yaml"
# a clean environment: the agent's identity is its config's, not the bench's LONGHAUL_KAFKA_*
# (env execs the agent, so $! is the agent itself)
env -i PATH="$PATH" HOME="${HOME:-/root}" "$ROOT/bin/longhaul-probe" check --config "$dir/probe.yaml" >/dev/null
env -i PATH="$PATH" HOME="${HOME:-/root}" "$ROOT/bin/longhaul-probe" run --config "$dir/probe.yaml" > "$dir/log" 2>&1 &
pid=$!
sleep "$WARMUP"
hz=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
t0=$(ticks); s0=$(date +%s.%N)
rss_max=0
for _ in $(seq 1 "$MEASURE"); do
  sleep 1
  r=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status"); [ "$r" -gt "$rss_max" ] && rss_max=$r
done
t1=$(ticks); s1=$(date +%s.%N)
children=$(awk '{print $16 + $17}' "/proc/$pid/stat")
python3 - "$t0" "$t1" "$s0" "$s1" "$hz" "$rss_max" "$children" "$MEASURE" <<'PY'
import json, sys
t0, t1, s0, s1, hz, rss, ch, m = sys.argv[1:]
cpu = (int(t1) - int(t0)) / int(hz) / (float(s1) - float(s0))
print("RESULT " + json.dumps({"figure": "agent_idle_cost", "targets": 50, "measured_s": int(m),
      "cpu_percent_of_one_core": round(100 * cpu, 2), "rss_max_mib": round(int(rss) / 1024, 1),
      "children_cpu_s_total": int(ch) / int(hz),
      "note": "agent process only; the probe tools (ping, traceroute, iperf3) are children, counted apart"}))
PY
