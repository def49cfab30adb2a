#!/usr/bin/env bash
# make demo: the whole system on an emulated long-haul testbed, with a scripted story.
#   1. the native stack (Kafka, Flink, InfluxDB, Telegraf) and the Flink job
#   2. the testbed (tests/testbed/testbed.sh): three senders, carrier routers with delay lines
#      (RTT 140–230 ms), shaped links, ECMP, a router silent to traceroute, a 64 KB-window host
#   3. longhaul-probe in each sender namespace (iperf3, traceroute, ping)
#   4. a story: healthy mesh → the carrier ca collapses (dst-a and dst-d behind it: one incident),
#      dst-b's route flips, dst-c's firewall refuses the iperf port → recovery, with every event
#      printed as Flink raises it
#   5. the HTML report (bin/longhaul report)
# Alerts go the way they would at a site: the alert bridge posts them to Alertmanager, which
# groups them and mails them to the local SMTP sink (and its webhook receiver); each subject is
# printed as it arrives, each message stored under .stack/run/sink (run/demo/notifications).
# It leaves everything running; `make demo-down` removes the testbed and the agents.
# Every port comes from deploy/services.yaml (override LONGHAUL_* in the environment).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
# Alertmanager's timings for a story of minutes, set before defaults.env (a site keeps the defaults:
# 30s, 3m, 5m). The link alerts an incident may explain wait 2 min, production's 3 min compressed
# like the job's out-of-orderness: long enough for the correlator to name the carrier and the lost site first.
export LONGHAUL_ALERT_GROUP_WAIT="${LONGHAUL_ALERT_GROUP_WAIT:-10s}" LONGHAUL_ALERT_LINK_GROUP_WAIT="${LONGHAUL_ALERT_LINK_GROUP_WAIT:-120s}" LONGHAUL_ALERT_GROUP_INTERVAL="${LONGHAUL_ALERT_GROUP_INTERVAL:-30s}"
source scripts/stack/lib.sh
DEMO="$LONGHAUL_STACK_DIR/run/demo"
HEALTHY_S="${LONGHAUL_DEMO_HEALTHY_S:-150}"
FAULT_S="${LONGHAUL_DEMO_FAULT_S:-180}"
RECOVER_S="${LONGHAUL_DEMO_RECOVER_S:-100}"
TB=(bash tests/testbed/testbed.sh)
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
mkdir -p "$DEMO"
T0=$(date +%s)

say "1/5 native stack and the Flink job"
# The stack keeps the job running with the testbed profile's arguments (shared with tests/e2e),
# supervised and restored across restarts like any production job; but this story starts it
# fresh: a previous story's detector state (a route already seen flipping) would change its events.
export LONGHAUL_JOB_ARGS_FILE="$ROOT/tests/testbed/job-profile.args"
bash scripts/stack/up.sh
(load_services && stop_daemon job/keeper)
mapfile -t PROFILE < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$LONGHAUL_JOB_ARGS_FILE")
bin/longhaul job submit --name "$LONGHAUL_JOB_NAME" --replace -- "${PROFILE[@]}" >/dev/null
bash scripts/stack/up.sh 2>&1 | grep -E "job|ERROR" || true

say "2/5 testbed"
bash scripts/demo-down.sh agent-only
"${TB[@]}" up

say "3/5 longhaul-probe on lab-s1, lab-s2, lab-s3 (each in its own namespace)"
"${TB[@]}" agents-start
setsid nohup bin/longhaul tail --since 1s >"$DEMO/events.log" 2>&1 &
echo $! >"$DEMO/tail.pid"
SINK_LOG="$LONGHAUL_STACK_DIR/run/sink/sink.log"
ln -sfn ../sink "$DEMO/notifications"
MAILED=$( [ -f "$SINK_LOG" ] && wc -l <"$SINK_LOG" || echo 0)
show_events() { # print the events and the notifications that arrived since the last call
  local n; n=$(wc -l <"$DEMO/events.log")
  [ "$n" -gt "${SHOWN:-0}" ] && sed -n "$(( ${SHOWN:-0} + 1 )),${n}p" "$DEMO/events.log" | sed 's/^/   EVENT /'
  SHOWN=$n
  [ -f "$SINK_LOG" ] || return 0
  n=$(wc -l <"$SINK_LOG")
  [ "$n" -gt "$MAILED" ] && sed -n "$(( MAILED + 1 )),${n}p" "$SINK_LOG" | { grep '^MAIL ' || true; } | sed 's/^MAIL /   MAIL  /'
  MAILED=$n
}
spool() { # samples each agent has handed to Kafka
  local s out=""
  for s in s1 s2 s3; do
    out+="$s $("${TB[@]}" agent-health "$s" 2>/dev/null | jq -r '"acked \(.kafka.acked)"' 2>/dev/null || echo '?')  "
  done
  echo "$out"
}
wait_phase() { # seconds label
  local end=$(( $(date +%s) + $1 ))
  while [ "$(date +%s)" -lt "$end" ]; do
    sleep 10
    show_events
    printf '   [%s: %3ss left | %s]\n' "$2" $(( end - $(date +%s) )) "$(spool)"
  done
}

say "4/5 the story"
echo "-- healthy mesh for ${HEALTHY_S}s: each link learns its own baseline (throughput, path, RTT)"
echo "   (lab-s2 → dst-d has a 64 KB send window over 140 ms: expect a diagnosis host_tuning_limited (its tcp_wmem maximum))"
wait_phase "$HEALTHY_S" healthy
echo "-- faults: the carrier ca collapses (5 Mbit/s, 10% loss): lab-s1 → dst-a and lab-s2 → dst-d behind it,"
echo "   one incident at its hop, one mail; dst-b's route flips to the 230 ms carrier (a notice);"
echo "   dst-c is lost to both its senders (its firewall refuses the iperf port): one incident at the site"
"${TB[@]}" carrier ca
"${TB[@]}" flip b alt
"${TB[@]}" block c
wait_phase "$FAULT_S" faults
echo "-- recovery: every link healed, dst-b back on its usual route"
"${TB[@]}" heal
wait_phase "$RECOVER_S" recovery

say "5/5 what happened ($(( $(date +%s) - T0 ))s so far)"
show_events
echo "   all events: $DEMO/events.log"
if bin/longhaul report --since 30m -o "$DEMO/report.html"; then
  echo "   HTML report: $DEMO/report.html"
else
  echo "   longhaul report failed (above); the events and statistics are in InfluxDB all the same"
fi
cat <<EOT

The stack, the Flink job, the testbed and the agents keep running.
  . ${LONGHAUL_STACK_DIR#"$LONGHAUL_ROOT"/}/env                                    first, in your shell: points bin/longhaul at this stack
  bin/longhaul tail --since 15m                         events as they are raised (--stats: link statistics)
  bash tests/testbed/testbed.sh status|carrier ca|collapse a|flip b alt|block c|stall a 20|loss a 10|heal
  bash tests/testbed/testbed.sh agent-health s1          an agent's health (s1 s2 s3)
  make status                                            services, PIDs, ports, RSS
  bin/longhaul alerts --since 30m                        open alerts and every event, from InfluxDB (as the reader user)
  ls $DEMO/notifications/mail/                 every notification Alertmanager sent (mail.jsonl, webhook.jsonl)
  bin/longhaul silence --site dst-a --for 2h --comment "maintenance"     a maintenance window (silence list | expire ID)
  Flink UI: $LONGHAUL_FLINK (mutual TLS: curl --cacert ${LONGHAUL_SECRETS_DIR#"$LONGHAUL_ROOT"/}/flink-rest.crt --cert ${LONGHAUL_FLINK_CERT#"$LONGHAUL_ROOT"/} $LONGHAUL_FLINK/overview)
  Grafana (with Docker): docker compose up -d grafana
  make demo-down                                         remove the testbed and the agents;  make down  stops the services
EOT
