#!/bin/sh
# longhaul-probe (EL): $1 = 1 install, 2 upgrade. As %systemd_post/%systemd_postun_with_restart:
# nothing starts on install (not enabled: the site configures it first); an upgrade restarts an
# agent that runs.
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload >/dev/null 2>&1 || :
  if [ "$1" -ge 2 ]; then
    systemctl try-restart longhaul-probe.service longhaul-psbridge.service >/dev/null 2>&1 || :
  fi
fi
if [ "$1" -eq 1 ]; then
  echo "longhaul-probe: set src, kafka and the probes in /etc/longhaul/longhaul-probe.yaml," \
    "then: systemctl enable --now longhaul-probe"
fi
exit 0
