#!/usr/bin/env bash
# packaging/render-scripts.sh PACKAGE OUT: the package's maintainer scripts, packaging/scripts/*.sh
# with what packaging/scripts/PACKAGE.vars says of it filled in (envsubst), written to OUT and
# then judged by shellcheck as rendered: a template can be clean while the script it makes is not
# (a loop over one user is SC2043). scripts/dist.sh calls it; tests/unit/test_packaging_scripts.py
# renders both packages.
set -euo pipefail
[ $# = 2 ] || { echo "usage: $0 PACKAGE OUT" >&2; exit 2; }
pkg="$1" out="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ -f "${here}/scripts/${pkg}.vars" ] || { echo "render-scripts: no packaging/scripts/${pkg}.vars" >&2; exit 2; }
mkdir -p "$out"
for f in "${here}"/scripts/*.sh; do
  # shellcheck disable=SC1090,SC2016  # the package's own variables; the names envsubst replaces
  (set -a && . "${here}/scripts/${pkg}.vars" && export PACKAGE="$pkg" &&
    envsubst '${PACKAGE} ${SERVICE_USERS} ${USER_COMMENT} ${UNITS} ${RESTART_NOTE} ${FIRST_INSTALL_HINT} ${PURGE_DIRS} ${PURGE_WHAT}') \
    <"$f" >"${out}/${f##*/}"
  chmod 0755 "${out}/${f##*/}"
done
shellcheck "${out}"/*.sh || { echo "render-scripts: ${pkg}'s rendered maintainer scripts in ${out} fail shellcheck" >&2; exit 1; }
