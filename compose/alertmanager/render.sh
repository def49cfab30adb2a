#!/bin/sh
# render.sh IN OUT: alerting/alertmanager.yml (IN) with each ${LONGHAUL_ALERT_*} placeholder
# replaced by that variable's value from the environment (docker-compose.yml's alertmanager
# service sets them, from .env or their defaults), written to OUT. The alertmanager service runs
# it each time before it execs Alertmanager, so a changed .env reaches Alertmanager with the next
# `docker compose up -d`.
#
# Why with sed, and here: the Alertmanager image has only busybox (sh, sed), and the compose
# `secrets` service runs in the operator image, which has no envsubst either. The native stack
# (scripts/stack/alertmanager.sh, and so `deploy/systemd/install.sh central`) and Kubernetes run
# this same file, so a new placeholder needs no list of names anywhere. The config holds no secret,
# so it is rendered where it is used instead of being written into ./secrets or the checkout. It
# replaces ${LONGHAUL_ALERT_*} only and leaves any other $ alone; a placeholder whose variable is
# not set is an error, so Alertmanager never starts on a half-filled config. Values are taken
# literally (sed's \ & | escaped) and may not hold a newline. POSIX sh and sed only;
# tests/unit/test_compose_alerting.py runs it.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 IN OUT" >&2; exit 2; }
in="$1" out="$2"
script="$out.sed"
trap 'rm -f "$script" "$out.tmp"' EXIT
: >"$script"
for name in $(env | sed -n 's/^\(LONGHAUL_ALERT_[A-Z0-9_]*\)=.*$/\1/p'); do
  eval "value=\$$name"
  # shellcheck disable=SC2154  # value is set by the eval above
  case "$value" in *'
'*) echo "render.sh: $name holds a newline" >&2; exit 1 ;; esac
  # shellcheck disable=SC2154  # value is set by the eval above
  printf 's|[$]{%s}|%s|g\n' "$name" "$(printf '%s\n' "$value" | sed 's/[\\&|]/\\&/g')" >>"$script"
done
sed -f "$script" "$in" >"$out.tmp"
left=$(sed -n 's/^.*\([$]{LONGHAUL_ALERT_[A-Z0-9_]*}\).*$/\1/p' "$out.tmp" | tr '\n' ' ')
if [ -n "$left" ]; then
  echo "render.sh: $in uses ${left}with no such variable set (docker-compose.yml, alertmanager's environment)" >&2
  exit 1
fi
mv "$out.tmp" "$out"
