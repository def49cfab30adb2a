#!/bin/sh
# longhaul (Debian): remove|purge|upgrade|... remove keeps the config and the data (the
# watchdog's and bridge's status) and forgets the units'
# enablement; purge deletes them. The system user stays (files elsewhere may name it).
set -e
if [ -d /run/systemd/system ]; then
  systemctl --system daemon-reload >/dev/null || true
fi
case "$1" in
  remove)
    if command -v deb-systemd-helper >/dev/null 2>&1; then
      deb-systemd-helper mask longhaul-job-keeper.service longhaul-watchdog.service longhaul-alert-bridge.service >/dev/null || true
    fi
    ;;
  purge)
    if command -v deb-systemd-helper >/dev/null 2>&1; then
      deb-systemd-helper purge longhaul-job-keeper.service longhaul-watchdog.service longhaul-alert-bridge.service >/dev/null || true
      deb-systemd-helper unmask longhaul-job-keeper.service longhaul-watchdog.service longhaul-alert-bridge.service >/dev/null || true
    fi
    rm -rf /var/lib/longhaul/watchdog /var/lib/longhaul/bridge
    rmdir /var/lib/longhaul /etc/longhaul 2>/dev/null || true
    ;;
esac
exit 0
