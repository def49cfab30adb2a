#!/bin/sh
# shellcheck disable=SC2086  # a template: dist.sh writes the unit and purge lists in as words
# ${PACKAGE} (Debian): configure [OLD-VERSION]. Nothing starts before the site configured it:
# a first install only tells systemd about the units (not enabled); an upgrade restarts the
# units that run (${RESTART_NOTE}).
set -e
if [ "$1" = configure ]; then
  if [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null || true
    if [ -n "$2" ]; then
      deb-systemd-invoke try-restart ${UNITS} >/dev/null || true
    fi
  fi
  if [ -z "$2" ]; then
    echo "${PACKAGE}: ${FIRST_INSTALL_HINT}"
  fi
fi
exit 0
