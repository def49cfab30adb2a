#!/bin/sh
# longhaul-probe (EL): $1 = 0 erase, 1 upgrade. As %systemd_preun: an erase stops and disables.
if [ "$1" -eq 0 ] && [ -d /run/systemd/system ]; then
  systemctl --no-reload disable --now longhaul-probe.service longhaul-psbridge.service >/dev/null 2>&1 || :
fi
exit 0
