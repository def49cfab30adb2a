#!/usr/bin/env bash
# The install tier's clean machine: a bootable Debian 12 (bookworm) minbase root with systemd,
# systemd-sysv and dbus, built once with debootstrap and kept as a tarball in the per-user stack
# cache (LONGHAUL_STACK_CACHE, scripts/stack/defaults.env). tests/lib/nspawn.py unpacks a copy
# per test and boots it with systemd-nspawn.
#   scripts/debian-root.sh            print the cached tarball's path; build it first if missing
#   scripts/debian-root.sh --rebuild  build a fresh one (then the older ones of this recipe go)
#   scripts/debian-root.sh --base     the same without systemd (ca-certificates only): the base
#                                     the OCI images are built on (images/), as nothing can be
#                                     pulled from a public registry here
# Only the path goes to stdout; progress and timings go to stderr. Needs root (debootstrap,
# chroot) and `bash scripts/prereqs.sh` (debootstrap, systemd-container).
#
# The root's apt uses the same Debian sources as this machine's apt (read from /etc/apt, so a
# mirror or proxy configured there is used inside too): the main suite, -updates and -security,
# so `apt-get install` inside resolves the versions the host would. The tarball's name carries
# the point release, the build date and a hash of the recipe (those sources and the package
# list): a changed mirror or package list builds a new root instead of reusing a stale one.
set -euo pipefail
# shellcheck source=stack/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/stack/lib.sh"
LOG_TAG=debian-root

SUITE=bookworm
# Installed after debootstrap, from the full sources (so security updates apply): what a booted
# root needs. Nothing else: the install tests prove our packages declare what they need.
PACKAGES=(systemd systemd-sysv dbus)
HOSTNAME_INSIDE=longhaul-debian12
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# Bump when the build steps change in a way the sources and package list do not show.
RECIPE_VERSION=1
PREFIX=debian12-systemd

# host_sources: "URI SUITE COMPONENTS..." for each enabled `deb` entry of this machine's apt, from
# both formats (one-line *.list, deb822 *.sources). Files with other suffixes are ignored, as apt does.
host_sources() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    # deb [options] URI SUITE COMPONENT...
    sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" | awk '$1 == "deb" && NF >= 3 { $1 = ""; sub(/^ /, ""); print }'
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk '
      function flush(   u, s, nu, ns, i, j) {
        if (types ~ /(^| )deb( |$)/ && enabled != "no") {
          nu = split(uris, u, " "); ns = split(suites, s, " ")
          for (i = 1; i <= nu; i++) for (j = 1; j <= ns; j++) print u[i], s[j], comps
        }
        types = uris = suites = comps = ""; enabled = "yes"
      }
      BEGIN { enabled = "yes" }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { flush(); next }
      /^[ \t]/   { next }   # continuation line (an embedded key): nothing we read
      {
        key = tolower($1); sub(/:$/, "", key); $1 = ""; sub(/^[ \t]+/, ""); val = $0
        if (key == "types") types = val
        else if (key == "uris") uris = val
        else if (key == "suites") suites = val
        else if (key == "components") comps = val
        else if (key == "enabled") enabled = tolower(val)
      }
      END { flush() }
    ' "$f"
  done
}

# root_sources: the root's /etc/apt/sources.list.d/debian.sources (deb822), one stanza per URI of
# the host's SUITE, SUITE-updates and SUITE-security entries. Dies when the host has no SUITE entry.
root_sources() {
  local uri suite comps key keys=() found=0
  declare -A suites_of=()
  while read -r uri suite comps; do
    case "$suite" in
      "$SUITE" | "$SUITE-updates" | "$SUITE-security") ;;
      *) continue ;;
    esac
    [ "$suite" = "$SUITE" ] && found=1
    key="$uri ${comps:-main}"
    [ -n "${suites_of[$key]+x}" ] || keys+=("$key")
    case " ${suites_of[$key]:-} " in
      *" $suite "*) ;;
      *) suites_of[$key]="${suites_of[$key]:+${suites_of[$key]} }$suite" ;;
    esac
  done < <(host_sources)
  [ "$found" = 1 ] || die "no '$SUITE' entry in this machine's apt sources (/etc/apt): debootstrap needs a Debian 12 mirror"
  echo "# The Debian sources of the machine that built this root (scripts/debian-root.sh)."
  for key in "${keys[@]}"; do
    printf '\nTypes: deb\nURIs: %s\nSuites: %s\nComponents: %s\nSigned-By: %s\n' \
      "${key%% *}" "${suites_of[$key]}" "${key#* }" "$KEYRING"
  done
}

# mirror_of SOURCES: the URI of the SUITE entry (where debootstrap fetches the base system)
mirror_of() {
  awk -v suite="$SUITE" '
    /^URIs:/ { uri = $2 }
    /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite) { print uri; exit } }
  ' <<<"$1"
}

# umount_under DIR: unmount whatever is mounted below DIR, deepest first. debootstrap mounts
# /proc and /sys in its target and a killed build leaves them there; `rm -rf` would descend into them.
umount_under() {
  local dir mnt
  dir="$(realpath -m "$1")"
  findmnt -rn -o TARGET | awk -v d="$dir/" 'index($0 "/", d) == 1' | sort -r | while read -r mnt; do
    umount -l "$mnt" || warn "could not unmount $mnt"
  done
}

remove_build_dir() {
  [ -d "$1" ] || return 0
  umount_under "$1"
  rm -rf --one-file-system "$1"
}

# in_root CMD...: run CMD in the root being built, with /proc, /sys and /dev of its own, the host's
# resolv.conf, and every process ended when it returns (systemd-nspawn without --boot: its mounts
# live in its own namespace, so nothing is left mounted even if this script is killed).
in_root() {
  systemd-nspawn -q -D "$ROOT" --register=no --keep-unit --pipe --resolv-conf=copy-host \
    --setenv=DEBIAN_FRONTEND=noninteractive --setenv=LC_ALL=C.UTF-8 "$@"
}

build() {
  local sources="$1" out="$2" build_dir mirror version t0 phase
  build_dir="$(mktemp -d "${CACHE_DIR}/.${PREFIX}-build.XXXXXX")"
  # shellcheck disable=SC2064  # the folder of this build, fixed now
  trap "remove_build_dir '${build_dir}'" EXIT
  ROOT="${build_dir}/root"
  local blog="${build_dir}/build.log"
  mirror="$(mirror_of "$sources")"
  t0="$(now_ms)"

  phase="debootstrap --variant=minbase ${SUITE} from ${mirror}"
  log "${phase} (about 2 min; log: ${blog})"
  nice -n 10 debootstrap --variant=minbase "$SUITE" "$ROOT" "$mirror" >"$blog" 2>&1 \
    || { tail -n 30 "$blog" >&2; die "${phase} failed"; }
  log "debootstrap done in $(elapsed_s "$t0" "$(now_ms)") s"

  # the host's sources replace the one-line sources.list debootstrap wrote (main suite only)
  rm -f "$ROOT/etc/apt/sources.list"
  printf '%s\n' "$sources" >"$ROOT/etc/apt/sources.list.d/debian.sources"
  # no service starts while packages install (dbus' postinst would start a daemon in the build)
  printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
  chmod 755 "$ROOT/usr/sbin/policy-rc.d"

  phase="apt-get update, upgrade (security and updates) and install ${PACKAGES[*]}"
  log "$phase"
  { in_root apt-get update -q &&
    in_root apt-get -y -q -o Dpkg::Options::=--force-confold dist-upgrade &&
    in_root apt-get -y -q --no-install-recommends install "${PACKAGES[@]}"; } >>"$blog" 2>&1 \
    || { tail -n 30 "$blog" >&2; die "${phase} failed"; }

  rm -f "$ROOT/usr/sbin/policy-rc.d"
  echo "$HOSTNAME_INSIDE" >"$ROOT/etc/hostname"
  printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
    "$HOSTNAME_INSIDE" >"$ROOT/etc/hosts"
  # Every copy gets its own machine ID at boot (systemd-nspawn passes one), not this build's.
  : >"$ROOT/etc/machine-id"
  rm -f "$ROOT/var/lib/dbus/machine-id"
  # Caches and logs of the build: each test runs `apt-get update` against the mirror it has then.
  in_root apt-get clean >>"$blog" 2>&1
  rm -rf "$ROOT"/var/lib/apt/lists/* "$ROOT"/var/cache/apt/*.bin "$ROOT"/var/cache/debconf/*-old \
    "$ROOT"/var/log/apt/* "$ROOT"/var/log/dpkg.log "$ROOT"/var/log/bootstrap.log \
    "$ROOT"/tmp/* "$ROOT"/var/tmp/*
  mkdir -p "$ROOT/var/lib/apt/lists/partial"

  version="$(cat "$ROOT/etc/debian_version")"
  out="${out/@VERSION@/${version}}"
  # numeric owners and extended attributes (file capabilities), as the unpacking side reads them
  tar -C "$ROOT" --numeric-owner --xattrs --xattrs-include='*' -cf "${build_dir}/root.tar" .
  cp "$blog" "${out%.tar}.log"           # what debootstrap and apt did, beside the tarball
  mv -f "${build_dir}/root.tar" "$out"   # same filesystem: atomic, never a half tarball
  log "built ${out} (Debian ${version}, $(du -m "$out" | cut -f1) MB) in $(elapsed_s "$t0" "$(now_ms)") s"
  BUILT="$out"
}

main() {
  local rebuild=0 sources key tarball old t0
  while [ $# -gt 0 ]; do
    case "$1" in
      --rebuild) rebuild=1 ;;
      --base) PACKAGES=(ca-certificates) PREFIX=debian12-base ;;
      *) die "usage: $0 [--rebuild] [--base]" ;;
    esac
    shift
  done
  # a build interrupted by Ctrl-C or kill still runs its EXIT trap (removes its folder)
  trap 'exit 130' INT TERM
  t0="$(now_ms)"
  sources="$(root_sources)"
  key="$( { echo "$RECIPE_VERSION ${PACKAGES[*]}"; echo "$sources"; } | sha256sum | cut -c1-8)"
  mkdir -p "${CACHE_DIR}"
  # the newest tarball of this recipe (a --rebuild deletes the older ones once it is done)
  find_cached() { find "${CACHE_DIR}" -maxdepth 1 -name "${PREFIX}-*-${key}.tar" -printf '%T@ %p\n' | sort -rn | sed -n '1s/^[^ ]* //p'; }
  tarball="$(find_cached)"
  if [ "$rebuild" = 1 ] || [ -z "$tarball" ]; then
    [ "$(id -u)" = 0 ] || die "building the Debian root needs root (debootstrap, chroot)"
    if ! command -v debootstrap >/dev/null || ! command -v systemd-nspawn >/dev/null; then
      die "debootstrap and systemd-nspawn are needed: bash scripts/prereqs.sh"
    fi
    # Its own lock, not up.sh's .install.lock: a build holds it for minutes, and a stack's
    # install in another checkout has no reason to wait for it.
    exec {lock}>"${CACHE_DIR}/.${PREFIX}.lock"
    flock -n "$lock" || { log "another run is building it: waiting"; flock "$lock"; }
    tarball="$(find_cached)"
    if [ "$rebuild" = 1 ] || [ -z "$tarball" ]; then
      # leftovers of a build that was killed (we hold the lock: no build is running)
      for old in "${CACHE_DIR}/.${PREFIX}-build."*; do remove_build_dir "$old"; done
      build "$sources" "${CACHE_DIR}/${PREFIX}-@VERSION@-$(date +%Y%m%d)-${key}.tar"
      tarball="$BUILT"
      find "${CACHE_DIR}" -maxdepth 1 \( -name "${PREFIX}-*-${key}.tar" -o -name "${PREFIX}-*-${key}.log" \) \
        ! -path "$tarball" ! -path "${tarball%.tar}.log" -delete
    fi
    exec {lock}>&-
  fi
  log "Debian 12 root: ${tarball} ($(du -m "$tarball" | cut -f1) MB; $(elapsed_s "$t0" "$(now_ms)") s)"
  echo "$tarball"
}

main "$@"
