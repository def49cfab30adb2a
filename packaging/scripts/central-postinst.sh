#!/bin/sh
# longhaul (Debian): configure [OLD-VERSION]. Nothing starts before the site configured it: a
# first install only tells systemd about the units (not enabled); an upgrade restarts the daemons
# that run (the job keeper then finds the job running and leaves it: the new jar is used at the
# job's next submission).
set -e
if [ "$1" = configure ]; then
  if [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null || true
    if [ -n "$2" ]; then
      deb-systemd-invoke try-restart longhaul-job-keeper.service longhaul-watchdog.service longhaul-alert-bridge.service >/dev/null || true
    fi
  fi
  if [ -z "$2" ]; then
    echo "longhaul: set the services' addresses in /etc/longhaul/longhaul.env (docs/install.md), then:" \
      "systemctl enable --now longhaul-job-keeper longhaul-watchdog longhaul-alert-bridge"
  fi
fi
exit 0
