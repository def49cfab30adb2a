#!/bin/sh
# longhaul-probe: before unpacking (deb: install|upgrade; rpm: 1 install, 2 upgrade). The agent's
# system user and group exist before the files that name them are unpacked.
set -e
if ! getent group longhaul-probe >/dev/null; then
  groupadd --system longhaul-probe
fi
if ! getent passwd longhaul-probe >/dev/null; then
  useradd --system --gid longhaul-probe --home-dir /var/lib/longhaul --no-create-home \
    --shell /usr/sbin/nologin --comment "Longhaul probe agent" longhaul-probe
fi
exit 0
