#!/bin/sh
# longhaul-probe (Debian): configure [OLD-VERSION]. Nothing starts before the site configured
# it: a first install only tells systemd about the units (not enabled); an upgrade restarts an
# agent that runs (it spools what is in flight and sends it after the restart, so no sample is
# lost or sent twice).
set -e
if [ "$1" = configure ]; then
  if [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null || true
    if [ -n "$2" ]; then
      deb-systemd-invoke try-restart longhaul-probe.service longhaul-psbridge.service >/dev/null || true
    fi
  fi
  if [ -z "$2" ]; then
    echo "longhaul-probe: set src, kafka and the probes in /etc/longhaul/longhaul-probe.yaml" \
      "(longhaul admin add-agent prints the kafka lines), then: systemctl enable --now longhaul-probe"
  fi
fi
exit 0
