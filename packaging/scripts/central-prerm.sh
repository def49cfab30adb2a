#!/bin/sh
# longhaul (Debian): remove|upgrade|deconfigure. A removal stops the daemons (the Flink
# job itself runs on, on its cluster); an upgrade leaves them running for postinst to restart.
set -e
if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
  deb-systemd-invoke stop longhaul-job-keeper.service longhaul-watchdog.service longhaul-alert-bridge.service >/dev/null || true
fi
exit 0
