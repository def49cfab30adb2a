#!/bin/sh
# shellcheck disable=SC2086  # a template: dist.sh writes the user list in as words
# ${PACKAGE}: before unpacking (deb: install|upgrade; rpm: 1 install, 2 upgrade). Its system
# users and their groups, one a daemon, exist before the files that name them are unpacked.
# (A template: packaging/render-scripts.sh fills in ${...} from packaging/scripts/PACKAGE.vars.)
set -e
# the users as the script's arguments: a loop over one literal word is SC2043 once rendered
set -- ${SERVICE_USERS}
for u in "$@"; do
  if ! getent group "$u" >/dev/null; then
    groupadd --system "$u"
  fi
  if ! getent passwd "$u" >/dev/null; then
    useradd --system --gid "$u" --home-dir /var/lib/longhaul --no-create-home \
      --shell /usr/sbin/nologin --comment "${USER_COMMENT}" "$u"
  fi
done
exit 0
