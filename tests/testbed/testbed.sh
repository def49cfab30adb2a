#!/usr/bin/env bash
# An emulated long-haul testbed of network namespaces (root only). Only addresses inside these
# namespaces and loopback are ever targeted. Namespace names start with $P (default lhb).
#
#  senders        edge          carriers: delay lines (RTT)        gateways       receivers (iperf3 -s)
#  s1 10.66.1.2 ┐          ┌── ca  (140 ms) ──────────────────────────────── tbf ── da dst-a 10.66.11.2 100 Mbit/s
#  s2 10.66.2.2 ┼── edge ──┤                 └─────────────────────────────── tbf ── dd dst-d 10.66.12.2 100 Mbit/s
#  s3 10.66.3.2 ┘ (10.66.   ├── cb1 (160 ms) ─┐
#                 x.1)     ├── cb2 (230 ms) ─┴─ gb ──────────────────────── tbf ── db dst-b 10.66.24.2  50 Mbit/s
#                          ├── e1 ─┐ ECMP
#                          └── e2 ─┴── cc (190 ms) ── gc (silent: * * *) ─── htb ── dc dst-c 10.66.35.2 200 Mbit/s
#
#  s1 probes dst-a (tcp, udp) and dst-b; s2 (64 KB maximum send window, seed 002) probes dst-d and
#  dst-c; s3 probes dst-c (LONGHAUL_TESTBED_TARGETS_S1/_S2/_S3: link letters, default "a b", "d c",
#  "c"). dst-b normally goes through cb1; `flip b` moves both directions to cb2.
#
# Usage: testbed.sh up | down | status
#        testbed.sh rate LINK RATE | loss LINK PERCENT | collapse LINK [PERCENT] | stall LINK SECONDS
#        testbed.sh block LINK | unblock LINK | flip b alt|congested|main | heal      (LINK: a b c d)
#        testbed.sh carrier ca [PERCENT] (the carrier ca collapses: every link behind it, dst-a and dst-d)
#        testbed.sh agents-start | agents-stop | agent-health SENDER | ns NAME (prints the full name)
#        testbed.sh run-dir (prints its run folder: the agents' configs, password files and logs)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/scripts/stack/lib.sh"
P="${LONGHAUL_TESTBED_PREFIX:-lhb}"
SITE="${LONGHAUL_TESTBED_SITE:-lab}"              # sender names are $SITE-s1 …
IPERF_PORT=5201
# every receiver runs one iperf3 server per port: an iperf3 server takes one test at a time, and s2
# shares dst-c with s3 (their runs would collide, "the server is busy"), so s2 uses the second
IPERF_PORTS=(5201 5202)
sender_port() { if [ "$1" = s2 ]; then echo 5202; else echo "$IPERF_PORT"; fi; }
AGENT_HEALTH_PORT="${LONGHAUL_AGENT_HEALTH_PORT:-9273}" # inside each sender namespace
RUN="$LONGHAUL_STACK_DIR/run/testbed-$P"
NETEMU="$ROOT/bin/longhaul-netemu"
PROBE="$ROOT/bin/longhaul-probe"
ROUTERS=(edge ca cb1 cb2 gb e1 e2 cc gc)
SENDERS=(s1 s2 s3)
RECEIVERS=(da db dc dd)
declare -A RATE=([a]=100mbit [b]=50mbit [c]=200mbit [d]=100mbit)
declare -A RTT_MS=([ca]=140 [cb1]=160 [cb2]=230 [cc]=190)
declare -A SHAPER=([a]="ca to-da" [b]="gb to-db" [c]="gc to-dc" [d]="ca to-dd") # router, interface
declare -A DST=([a]=10.66.11.2 [b]=10.66.24.2 [c]=10.66.35.2 [d]=10.66.12.2)
SHARED_LINK=c               # the link two senders test (s2, s3): shaped per sender (shape_shared)
SHARED_SENDER_SRC=10.66.2.2 # s2, given a class of its own there

ns() { echo "$P-$1"; }
nsx() { local n; n=$(ns "$1"); shift; ip netns exec "$n" "$@"; }
link_ok() { [ -n "${RATE[$1]:-}" ] || { echo "unknown link '$1' (a b c d)" >&2; exit 2; }; }

new_ns() {
  ip netns add "$(ns "$1")"
  nsx "$1" ip link set lo up
  nsx "$1" sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
}

# wire A B NET: a veth between namespaces A (NET.1, "to-B") and B (NET.2, "to-A")
wire() {
  ip -n "$(ns "$1")" link add "to-$2" type veth peer name "to-$1" netns "$(ns "$2")"
  ip -n "$(ns "$1")" addr add "$3.1/24" dev "to-$2"
  ip -n "$(ns "$2")" addr add "$3.2/24" dev "to-$1"
  ip -n "$(ns "$1")" link set "to-$2" up
  ip -n "$(ns "$2")" link set "to-$1" up
}

router() {
  new_ns "$1"
  nsx "$1" sysctl -qw net.ipv4.ip_forward=1 net.ipv4.icmp_errors_use_inbound_ifaddr=1 \
    net.ipv4.fib_multipath_hash_policy=1
  nsx "$1" iptables -N LH-FAULT
  nsx "$1" iptables -A FORWARD -j LH-FAULT
}

# delay ROUTER RTT_MS: every packet the router forwards, either way, passes a TUN delay line
# holding it RTT/2, so a round trip through the router costs RTT.
delay() {
  local r="$1" one_way; one_way=$(awk -v r="$2" 'BEGIN{print r/2}')
  mkdir -p "$RUN"
  ip netns exec "$(ns "$r")" setsid "$NETEMU" delay -dev dl0 -ms "$one_way" >"$RUN/delay-$r.log" 2>&1 &
  echo $! >"$RUN/delay-$r.pid"
  for _ in $(seq 1 50); do nsx "$r" ip link show dl0 >/dev/null 2>&1 && break; sleep 0.1; done
  nsx "$r" ip link set dl0 up txqueuelen 10000
  # the router's own ICMP (TTL exceeded) also goes through the line and comes back from dl0 with
  # a local source address: accept it, or the kernel drops it as a martian and the hop is * * *
  nsx "$r" sysctl -qw net.ipv4.conf.dl0.accept_local=1
  nsx "$r" ip route add default dev dl0 table 100
  nsx "$r" ip rule add pref 100 iif dl0 lookup main
  nsx "$r" ip rule add pref 101 iif dl0 prohibit
  nsx "$r" ip rule add pref 200 lookup 100
}

shape() { # LINK RATE: tbf on the gateway's egress towards the receiver (where iperf3 data flows);
  # the shared link: htb (shape_shared)
  [ "$1" = "$SHARED_LINK" ] && { shape_shared "$1" "$2"; return; }
  local r ifc; read -r r ifc <<<"${SHAPER[$1]}"
  nsx "$r" tc qdisc replace dev "$ifc" root tbf rate "$2" burst 256kb latency 100ms
}
# shaped LINK RATE: the link's tbf (or htb class) already has that rate (tc prints "rate 100Mbit …")
shaped() {
  local r ifc; read -r r ifc <<<"${SHAPER[$1]}"
  if [ "$1" = "$SHARED_LINK" ]; then
    grep -qi "^class htb 1:1 root rate $2 ceil $2 " <<<"$(nsx "$r" tc class show dev "$ifc" classid 1:1)"
  else
    grep -qi "^qdisc tbf .* rate $2 burst 256kb lat 100ms" <<<"$(nsx "$r" tc qdisc show dev "$ifc")"
  fi
}
# dst-c's link has two senders, s2 and s3, and a real receiver takes one test at a time
# (pScheduler schedules them apart; here two iperf3 servers take both). One tbf queue would put
# s2's 64 KB-window run behind up to 100 ms of s3's: 0.92 Mbit/s beside s3's run, 2.6 alone, a
# collapse of a link nothing was done to. So its rate is an htb class with a queue per sender:
# s2's small class is served first while under its rate, everything else takes the rest, both
# may borrow up to the link's rate, and the link never passes it. Each queue holds 100 ms at the
# rate (tbf's latency). A new rate changes the classes: their queues are kept.
shape_shared() { # LINK RATE
  local r ifc bps verb=change; read -r r ifc <<<"${SHAPER[$1]}"
  bps=$(rate_bps "$2")
  if ! grep -q "^qdisc htb 1: root" <<<"$(nsx "$r" tc qdisc show dev "$ifc")"; then
    nsx "$r" tc qdisc replace dev "$ifc" root handle 1: htb default 10
    verb=add
  fi
  nsx "$r" tc class "$verb" dev "$ifc" parent 1: classid 1:1 htb rate "$2" ceil "$2" burst 256kb cburst 256kb quantum 60000
  nsx "$r" tc class "$verb" dev "$ifc" parent 1:1 classid 1:10 htb rate "$((bps - bps / 10))bit" \
    ceil "$2" burst 256kb cburst 256kb prio 1 quantum 60000
  nsx "$r" tc class "$verb" dev "$ifc" parent 1:1 classid 1:20 htb rate "$((bps / 10))bit" \
    ceil "$2" burst 256kb cburst 256kb prio 0 quantum 60000
  nsx "$r" tc qdisc replace dev "$ifc" parent 1:10 handle 10: bfifo limit "$((bps / 80 + 262144))"
  nsx "$r" tc qdisc replace dev "$ifc" parent 1:20 handle 20: bfifo limit "$((bps / 80 + 262144))"
  if [ "$verb" = add ]; then
    nsx "$r" tc filter add dev "$ifc" parent 1: protocol ip prio 1 u32 \
      match ip src "$SHARED_SENDER_SRC/32" flowid 1:20
  fi
}
rate_bps() { # 200mbit, 60mbit, 500kbit → bits a second
  local n="${1%%[a-zA-Z]*}" u="${1##*[0-9]}"
  case "${u,,}" in
    gbit) echo $((n * 1000000000)) ;; mbit) echo $((n * 1000000)) ;; kbit) echo $((n * 1000)) ;;
    bit | "") echo "$n" ;; *) echo "rate_bps: unknown unit in '$1'" >&2; exit 2 ;;
  esac
}

receiver() { # NAME GATEWAY_ADDR
  nsx "$1" ip route add default via "$2"
  nsx "$1" iptables -N LH-FAULT
  nsx "$1" iptables -A INPUT -j LH-FAULT
  local port
  for port in "${IPERF_PORTS[@]}"; do
    nsx "$1" iperf3 -s -D -p "$port" -I "$RUN/iperf3-$1-$port.pid" --logfile "$RUN/iperf3-$1-$port.log"
  done
}

up() {
  down_quiet
  mkdir -p "$RUN"
  [ -x "$NETEMU" ] || { echo "testbed: $NETEMU missing (make build)" >&2; exit 1; }
  for r in "${ROUTERS[@]}"; do router "$r"; done
  for n in "${SENDERS[@]}" "${RECEIVERS[@]}"; do new_ns "$n"; done
  wire edge s1 10.66.1; wire edge s2 10.66.2; wire edge s3 10.66.3
  wire edge ca 10.66.10; wire ca da 10.66.11; wire ca dd 10.66.12
  wire edge cb1 10.66.20; wire edge cb2 10.66.21; wire cb1 gb 10.66.22; wire cb2 gb 10.66.23; wire gb db 10.66.24
  wire edge e1 10.66.30; wire edge e2 10.66.31; wire e1 cc 10.66.32; wire e2 cc 10.66.33
  wire cc gc 10.66.34; wire gc dc 10.66.35
  # senders: default via the edge
  for i in 1 2 3; do nsx "s$i" ip route add default via "10.66.$i.1"; done
  # the edge: one route per destination; dst-c over two equal-cost carriers
  nsx edge ip route add 10.66.11.0/24 via 10.66.10.2
  nsx edge ip route add 10.66.12.0/24 via 10.66.10.2
  nsx edge ip route add 10.66.24.0/24 via 10.66.20.2
  nsx edge ip route add 10.66.35.0/24 nexthop via 10.66.30.2 nexthop via 10.66.31.2
  # every other router: default back towards the edge, plus its destinations
  nsx ca ip route add default via 10.66.10.1
  nsx cb1 ip route add default via 10.66.20.1; nsx cb1 ip route add 10.66.24.0/24 via 10.66.22.2
  nsx cb2 ip route add default via 10.66.21.1; nsx cb2 ip route add 10.66.24.0/24 via 10.66.23.2
  nsx gb ip route add default via 10.66.22.1
  nsx e1 ip route add default via 10.66.30.1; nsx e1 ip route add 10.66.35.0/24 via 10.66.32.2
  nsx e2 ip route add default via 10.66.31.1; nsx e2 ip route add 10.66.35.0/24 via 10.66.33.2
  nsx cc ip route add default nexthop via 10.66.32.1 nexthop via 10.66.33.1
  nsx cc ip route add 10.66.35.0/24 via 10.66.34.2
  nsx gc ip route add default via 10.66.34.1
  # gc answers no traceroute: its TTL-exceeded messages never leave
  nsx gc iptables -A OUTPUT -p icmp --icmp-type time-exceeded -j DROP
  for r in "${!RTT_MS[@]}"; do delay "$r" "${RTT_MS[$r]}"; done
  receiver da 10.66.11.1; receiver dd 10.66.12.1; receiver db 10.66.24.1; receiver dc 10.66.35.1
  # s2 is seed 002's host: a 64 KB maximum send buffer (tcp_wmem is per namespace)
  nsx s2 sysctl -qw net.ipv4.tcp_wmem="4096 16384 65536"
  # s3 is a tuned transfer node (seed 003): 32 MB windows fill 200 Mbit/s over 190 ms
  nsx s3 sysctl -qw net.ipv4.tcp_wmem="4096 16384 33554432"
  for l in a b c d; do shape "$l" "${RATE[$l]}"; done
  echo "testbed $P up: dst-a ${DST[a]} (${RATE[a]}, 140 ms), dst-b ${DST[b]} (${RATE[b]}, 160 ms; alt 230 ms)," \
    "dst-c ${DST[c]} (${RATE[c]}, 190 ms, ECMP, silent hop), dst-d ${DST[d]} (${RATE[d]}, 140 ms, from s2: 64 KB window)"
}

# running PID: alive and not a zombie. The delay lines and iperf3 servers are daemons whose parent
# is the machine's init, which may reap them seconds after they exit (here, 2 s each).
running() { kill -0 "$1" 2>/dev/null && [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ]; }

# kill_pidfiles FILE...: SIGTERM to the process of each pid file at once, SIGKILL to those still
# running 5 s later; the files go.
kill_pidfiles() {
  local f pids=() pid
  for f in "$@"; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null && pids+=("$pid")
    rm -f "$f"
  done
  for _ in $(seq 1 50); do
    for pid in "${pids[@]}"; do running "$pid" && { sleep 0.1; continue 2; }; done
    return 0
  done
  for pid in "${pids[@]}"; do running "$pid" && kill -9 "$pid" 2>/dev/null; done
  return 0
}

down_quiet() {
  agents_stop
  kill_pidfiles "$RUN"/delay-*.pid "$RUN"/iperf3-*.pid "$RUN"/fwd-*.pid
  for n in "${ROUTERS[@]}" "${SENDERS[@]}" "${RECEIVERS[@]}"; do ip netns del "$(ns "$n")" 2>/dev/null || true; done
}

# --- faults ------------------------------------------------------------------------------------
# Faults match the gateway's interface towards the receiver, not addresses: a delay router
# forwards every packet twice (into its delay line, then out), an address rule would hit twice.
loss() { # LINK PERCENT: random drops of the receiver-bound packets (iptables statistic)
  local r ifc; read -r r ifc <<<"${SHAPER[$1]}"
  nsx "$r" iptables -A LH-FAULT -o "$ifc" -m statistic --mode random \
    --probability "$(awk -v p="$2" 'BEGIN{print p/100}')" -j DROP
}
clear_loss() { local r ifc; read -r r ifc <<<"${SHAPER[$1]}"; nsx "$r" iptables -F LH-FAULT; }
stall() { # LINK SECONDS: everything to and from the receiver dropped, then restored
  local r ifc; read -r r ifc <<<"${SHAPER[$1]}"
  nsx "$r" iptables -I LH-FAULT -o "$ifc" -j DROP
  nsx "$r" iptables -I LH-FAULT -i "$ifc" -j DROP
  ( sleep "$2"
    nsx "$r" iptables -D LH-FAULT -o "$ifc" -j DROP
    nsx "$r" iptables -D LH-FAULT -i "$ifc" -j DROP ) >/dev/null 2>&1 &
}
block() { # the receiver's firewall refuses the iperf ports (seed 000): TCP reset
  local port
  for port in "${IPERF_PORTS[@]}"; do
    nsx "d$1" iptables -A LH-FAULT -p tcp --dport "$port" -j REJECT --reject-with tcp-reset
  done
}
# flip b alt|congested|main: dst-b's route, both directions, through cb2 (230 ms) or cb1 (160 ms);
# congested: through cb2 whose carrier towards gb is congested (15 Mbit/s, a tbf on its egress)
CONGESTED_RATE=15mbit
flip() {
  [ "$1" = b ] || { echo "only link b has an alternative route" >&2; exit 2; }
  case "$2" in
    alt|congested)
      nsx edge ip route replace 10.66.24.0/24 via 10.66.21.2; nsx gb ip route replace default via 10.66.23.1
      if [ "$2" = congested ]; then
        nsx cb2 tc qdisc replace dev to-gb root tbf rate "$CONGESTED_RATE" burst 64kb latency 100ms
      fi ;;
    main)
      nsx edge ip route replace 10.66.24.0/24 via 10.66.20.2; nsx gb ip route replace default via 10.66.22.1
      nsx cb2 tc qdisc del dev to-gb root 2>/dev/null || true ;;
    *) echo "flip b alt|congested|main" >&2; exit 2 ;;
  esac
}
# carrier ROUTER [PERCENT]: the carrier router itself degrades (5 Mbit/s and PERCENT loss, 10 %,
# on each of its egresses towards a receiver): every link it carries collapses at once, the links
# that avoid it do not (ca carries dst-a from s1 and dst-d from s2; the incident correlator's case)
carrier() {
  local l r ifc hit=""
  for l in a b c d; do
    read -r r ifc <<<"${SHAPER[$l]}"
    [ "$r" = "$1" ] || continue
    shape "$l" 5mbit; loss "$l" "${2:-10}"; hit="$hit $l"
  done
  [ -n "$hit" ] || { echo "'$1' carries no shaped link (ca)" >&2; exit 2; }
  echo "carrier $1 collapsed: links$hit at 5 Mbit/s, ${2:-10}% loss"
}
# heal: every fault undone. A link already at its rate keeps its tbf: replacing it drops the queue of
# a run in progress (up to 100 ms of the link's rate), a loss burst on a link nothing was wrong with.
heal() {
  for l in a b c d; do
    shaped "$l" "${RATE[$l]}" || shape "$l" "${RATE[$l]}"
    clear_loss "$l"; nsx "d$l" iptables -F LH-FAULT
  done
  flip b main
}

# --- agents: one longhaul-probe per sender namespace (agents.sh) ------------------------------
# shellcheck source=agents.sh
source "$ROOT/tests/testbed/agents.sh"

status() {
  for n in "${SENDERS[@]}" "${ROUTERS[@]}" "${RECEIVERS[@]}"; do
    grep -qw "$(ns "$n")" <<<"$(ip netns list)" && printf '%s up  ' "$(ns "$n")" || printf '%s absent  ' "$(ns "$n")"
  done
  echo
  for l in a b c d; do
    local r ifc; read -r r ifc <<<"${SHAPER[$l]}"
    printf 'link %s: %s\n' "$l" "$(nsx "$r" tc qdisc show dev "$ifc" 2>/dev/null | head -1)"
  done
}

cmd="${1:-}"; shift || true
case "$cmd" in
  up) up ;;
  down) down_quiet; echo "testbed $P down" ;;
  status) status ;;
  rate) link_ok "$1"; shape "$1" "$2"; echo "link $1 shaped to $2" ;;
  loss) link_ok "$1"; loss "$1" "$2"; echo "link $1: ${2}% loss" ;;
  collapse) link_ok "$1"; shape "$1" 5mbit; loss "$1" "${2:-10}"; echo "link $1 collapsed: 5 Mbit/s, ${2:-10}% loss" ;;
  stall) link_ok "$1"; stall "$1" "$2"; echo "link $1 stalls for ${2}s" ;;
  carrier) carrier "$@" ;;
  block) link_ok "$1"; block "$1"; echo "link $1: receiver refuses ports ${IPERF_PORTS[*]}" ;;
  unblock) link_ok "$1"; nsx "d$1" iptables -F LH-FAULT; echo "link $1: ports ${IPERF_PORTS[*]} open" ;;
  flip) flip "$@"; echo "link $1 routed via ${2}" ;;
  heal) heal; echo "testbed $P healed" ;;
  agents-start) agents_start ;;
  agents-stop) agents_stop; echo "agents stopped" ;;
  agent-health) nsx "$1" curl -fsS "http://127.0.0.1:$AGENT_HEALTH_PORT/health" ;;
  ns) ns "$1" ;;
  run-dir) echo "$RUN" ;;
  *) sed -n '2,20p' "$0"; exit 2 ;;
esac
