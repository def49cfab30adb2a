#!/bin/sh
# longhaul: before unpacking (deb: install|upgrade; rpm: 1 install, 2 upgrade). The daemons'
# system user and group exist before the files that name them are unpacked.
set -e
if ! getent group longhaul >/dev/null; then
  groupadd --system longhaul
fi
if ! getent passwd longhaul >/dev/null; then
  useradd --system --gid longhaul --home-dir /var/lib/longhaul --no-create-home \
    --shell /usr/sbin/nologin --comment "Longhaul central daemons" longhaul
fi
exit 0
