#!/usr/bin/env bash
# An emulated long-haul testbed of network namespaces (root only; only addresses inside these
# namespaces are ever targeted):
#
#   root ns (sender, runs longhaul-probe)          lh-rtr (router)            receivers (iperf3 -s)
#   lh-s0 10.77.0.1/30 ───────────────────── lh-r0 10.77.0.2/30
#                                               lh-ra 10.77.1.1/24 ──tbf A──── lh-dsta 10.77.1.2
#                                               lh-rb 10.77.2.1/24 ──tbf B──── lh-dstb 10.77.2.2
#
# Usage: testbed.sh up | down | status | rate a|b RATE | block a|b | unblock a|b | heal
set -euo pipefail
RATE_A="${LONGHAUL_TESTBED_RATE_A:-100mbit}"
RATE_B="${LONGHAUL_TESTBED_RATE_B:-40mbit}"
IPERF_PORT=5201
RUN_DIR="${LONGHAUL_STACK_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/.stack}/run/testbed"
NS_ALL=(lh-rtr lh-dsta lh-dstb)

nsx() { ip netns exec "$@"; }
link_if() { case "$1" in a) echo lh-ra ;; b) echo lh-rb ;; *) echo "unknown link $1 (a or b)" >&2; exit 2 ;; esac; }
dst_ns() { case "$1" in a) echo lh-dsta ;; b) echo lh-dstb ;; *) echo "unknown link $1 (a or b)" >&2; exit 2 ;; esac; }

# shape: tbf on the router's egress towards the receiver (the direction iperf3 data flows)
shape() {
  local ifc; ifc=$(link_if "$1")
  nsx lh-rtr tc qdisc replace dev "$ifc" root tbf rate "$2" burst 64kb latency 50ms
}

receiver() { # namespace address router-side-interface router-address
  local ns="$1" addr="$2" ifc="$3" raddr="$4"
  ip netns add "$ns"
  ip link add "$ifc" type veth peer name eth0 netns "$ns"
  ip link set "$ifc" netns lh-rtr
  nsx lh-rtr ip addr add "$raddr/24" dev "$ifc"
  nsx lh-rtr ip link set "$ifc" up
  nsx "$ns" ip addr add "$addr/24" dev eth0
  nsx "$ns" ip link set lo up
  nsx "$ns" ip link set eth0 up
  nsx "$ns" ip route add default via "$raddr"
  mkdir -p "$RUN_DIR"
  nsx "$ns" iperf3 -s -D -p "$IPERF_PORT" -I "$RUN_DIR/$ns-iperf3.pid" --logfile "$RUN_DIR/$ns-iperf3.log"
}

up() {
  down_quiet
  ip netns add lh-rtr
  nsx lh-rtr ip link set lo up
  nsx lh-rtr sysctl -qw net.ipv4.ip_forward=1
  ip link add lh-s0 type veth peer name lh-r0 netns lh-rtr
  ip addr add 10.77.0.1/30 dev lh-s0
  ip link set lh-s0 up
  nsx lh-rtr ip addr add 10.77.0.2/30 dev lh-r0
  nsx lh-rtr ip link set lh-r0 up
  ip route replace 10.77.0.0/16 via 10.77.0.2 dev lh-s0
  receiver lh-dsta 10.77.1.2 lh-ra 10.77.1.1
  receiver lh-dstb 10.77.2.2 lh-rb 10.77.2.1
  shape a "$RATE_A"
  shape b "$RATE_B"
  echo "testbed up: dst-a 10.77.1.2 ($RATE_A), dst-b 10.77.2.2 ($RATE_B), iperf3 -s on :$IPERF_PORT"
}

down_quiet() {
  for ns in lh-dsta lh-dstb; do
    [ -f "$RUN_DIR/$ns-iperf3.pid" ] && kill "$(cat "$RUN_DIR/$ns-iperf3.pid")" 2>/dev/null || true
    rm -f "$RUN_DIR/$ns-iperf3.pid"
  done
  ip route del 10.77.0.0/16 2>/dev/null || true
  ip link del lh-s0 2>/dev/null || true
  for ns in "${NS_ALL[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
}

block() { # the receiver's firewall refuses the iperf port (seed 000)
  local ns; ns=$(dst_ns "$1")
  nsx "$ns" iptables -C INPUT -p tcp --dport "$IPERF_PORT" -j REJECT --reject-with tcp-reset 2>/dev/null ||
    nsx "$ns" iptables -I INPUT -p tcp --dport "$IPERF_PORT" -j REJECT --reject-with tcp-reset
}

unblock() {
  local ns; ns=$(dst_ns "$1")
  while nsx "$ns" iptables -D INPUT -p tcp --dport "$IPERF_PORT" -j REJECT --reject-with tcp-reset 2>/dev/null; do :; done
}

status() {
  for ns in "${NS_ALL[@]}"; do ip netns list | grep -qw "$ns" && echo "$ns: up" || echo "$ns: absent"; done
  nsx lh-rtr tc -s qdisc show dev lh-ra 2>/dev/null | head -2 || true
  nsx lh-rtr tc -s qdisc show dev lh-rb 2>/dev/null | head -2 || true
}

case "${1:-}" in
  up) up ;;
  down) down_quiet; echo "testbed down" ;;
  status) status ;;
  rate) shape "$2" "$3"; echo "link $2 shaped to $3" ;;
  block) block "$2"; echo "link $2: iperf port $IPERF_PORT refused" ;;
  unblock) unblock "$2"; echo "link $2: iperf port open" ;;
  heal) shape a "$RATE_A"; shape b "$RATE_B"; unblock a; unblock b; echo "testbed healed" ;;
  *) sed -n '2,12p' "$0"; exit 2 ;;
esac
