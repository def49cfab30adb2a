#!/bin/sh
# longhaul (EL): $1 = 0 erase, 1 upgrade. rpm keeps a changed config as .rpmsave and leaves
# the daemons' status files under /var/lib/longhaul: EL has no purge, so
# deleting /var/lib/longhaul is the site's to do once they are not wanted.
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload >/dev/null 2>&1 || :
fi
exit 0
