#!/bin/sh
# ${PACKAGE} (EL): $1 = 0 erase, 1 upgrade. rpm keeps a changed config as .rpmsave and leaves
# the data (${PURGE_WHAT}): EL has no purge, so deleting it is the site's to do once it is not
# wanted.
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload >/dev/null 2>&1 || :
fi
exit 0
