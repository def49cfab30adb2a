#!/bin/sh
# longhaul (EL): $1 = 1 install, 2 upgrade. As %systemd_post/%systemd_postun_with_restart:
# nothing starts on install (not enabled: the site configures it first); an upgrade restarts the
# daemons that run.
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload >/dev/null 2>&1 || :
  if [ "$1" -ge 2 ]; then
    systemctl try-restart longhaul-job-keeper.service longhaul-watchdog.service longhaul-alert-bridge.service >/dev/null 2>&1 || :
  fi
fi
if [ "$1" -eq 1 ]; then
  echo "longhaul: set the services' addresses in /etc/longhaul/longhaul.env (docs/install.md), then:" \
    "systemctl enable --now longhaul-job-keeper longhaul-watchdog longhaul-alert-bridge"
fi
exit 0
