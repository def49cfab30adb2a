#!/bin/sh
# longhaul-probe (Debian): remove|upgrade|deconfigure. A removal stops the agent (what Kafka has
# not taken stays in the spool); an upgrade leaves it running for postinst to restart.
set -e
if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
  deb-systemd-invoke stop longhaul-probe.service longhaul-psbridge.service >/dev/null || true
fi
exit 0
