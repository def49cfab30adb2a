#!/bin/sh
# shellcheck disable=SC2086  # a template: dist.sh writes the unit and purge lists in as words
# ${PACKAGE} (Debian): remove|upgrade|deconfigure. A removal stops its units; an upgrade leaves
# them running for postinst to restart.
set -e
if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
  deb-systemd-invoke stop ${UNITS} >/dev/null || true
fi
exit 0
