#!/bin/sh
# shellcheck disable=SC2086  # a template: dist.sh writes the unit and purge lists in as words
# ${PACKAGE} (EL): $1 = 1 install, 2 upgrade. As %systemd_post/%systemd_postun_with_restart:
# nothing starts on install (not enabled: the site configures it first); an upgrade restarts the
# units that run.
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload >/dev/null 2>&1 || :
  if [ "$1" -ge 2 ]; then
    systemctl try-restart ${UNITS} >/dev/null 2>&1 || :
  fi
fi
if [ "$1" -eq 1 ]; then
  echo "${PACKAGE}: ${FIRST_INSTALL_HINT}"
fi
exit 0
