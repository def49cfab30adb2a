#!/bin/sh
# ${PACKAGE}: before unpacking (deb: install|upgrade; rpm: 1 install, 2 upgrade). Its system
# user and group exist before the files that name them are unpacked.
# (A template: scripts/dist.sh fills in ${...} from packaging/scripts/PACKAGE.vars.)
set -e
if ! getent group "${SERVICE_USER}" >/dev/null; then
  groupadd --system "${SERVICE_USER}"
fi
if ! getent passwd "${SERVICE_USER}" >/dev/null; then
  useradd --system --gid "${SERVICE_USER}" --home-dir /var/lib/longhaul --no-create-home \
    --shell /usr/sbin/nologin --comment "${USER_COMMENT}" "${SERVICE_USER}"
fi
exit 0
