#!/bin/sh
# longhaul-probe (Debian): remove|purge|upgrade|... remove keeps the config and the data (the
# spool: samples Kafka has not taken yet; the bridge's cursor) and forgets the units'
# enablement; purge deletes them. The system user stays (files elsewhere may name it).
set -e
if [ -d /run/systemd/system ]; then
  systemctl --system daemon-reload >/dev/null || true
fi
case "$1" in
  remove)
    if command -v deb-systemd-helper >/dev/null 2>&1; then
      deb-systemd-helper mask longhaul-probe.service longhaul-psbridge.service >/dev/null || true
    fi
    ;;
  purge)
    if command -v deb-systemd-helper >/dev/null 2>&1; then
      deb-systemd-helper purge longhaul-probe.service longhaul-psbridge.service >/dev/null || true
      deb-systemd-helper unmask longhaul-probe.service longhaul-psbridge.service >/dev/null || true
    fi
    rm -rf /var/lib/longhaul/spool /var/lib/longhaul/psbridge /var/lib/private/longhaul
    rmdir /var/lib/longhaul /etc/longhaul 2>/dev/null || true
    ;;
esac
exit 0
