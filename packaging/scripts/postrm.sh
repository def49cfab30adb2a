#!/bin/sh
# shellcheck disable=SC2086  # a template: dist.sh writes the unit and purge lists in as words
# ${PACKAGE} (Debian): remove|purge|upgrade|... remove keeps the config and the data
# (${PURGE_WHAT}) and forgets the units' enablement; purge deletes them. The system user stays
# (files elsewhere may name it).
set -e
if [ -d /run/systemd/system ]; then
  systemctl --system daemon-reload >/dev/null || true
fi
case "$1" in
  remove)
    if command -v deb-systemd-helper >/dev/null 2>&1; then
      deb-systemd-helper mask ${UNITS} >/dev/null || true
    fi
    ;;
  purge)
    if command -v deb-systemd-helper >/dev/null 2>&1; then
      deb-systemd-helper purge ${UNITS} >/dev/null || true
      deb-systemd-helper unmask ${UNITS} >/dev/null || true
    fi
    rm -rf ${PURGE_DIRS}
    rmdir /var/lib/longhaul /etc/longhaul 2>/dev/null || true
    ;;
esac
exit 0
