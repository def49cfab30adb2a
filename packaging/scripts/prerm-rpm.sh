#!/bin/sh
# shellcheck disable=SC2086  # a template: dist.sh writes the unit and purge lists in as words
# ${PACKAGE} (EL): $1 = 0 erase, 1 upgrade. As %systemd_preun: an erase stops and disables.
if [ "$1" -eq 0 ] && [ -d /run/systemd/system ]; then
  systemctl --no-reload disable --now ${UNITS} >/dev/null 2>&1 || :
fi
exit 0
