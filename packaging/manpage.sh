#!/usr/bin/env bash
# packaging/manpage.sh BINARY SUMMARY: a man page (roff, on stdout) made from the binary's own
# help, so the page says what the build it ships with does: its usage and commands, then each
# command's flags.
set -euo pipefail
bin="$1" summary="$2"
name="$(basename "$bin")"

# roff-safe text: backslashes doubled, a leading dot or quote protected
esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

commands() { "$bin" --help | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{on=0}'; }

version="$("$bin" version | awk '{print $2}')"
echo ".TH $(tr '[:lower:]' '[:upper:]' <<<"$name") 1 \"$(date -u +%Y-%m-%d)\" \"$name $version\" \"Longhaul\""
echo ".SH NAME"
echo "$name \\- $summary"
echo ".SH SYNOPSIS"
echo ".B $name"
echo ".I command"
echo "[flags]"
echo ".SH DESCRIPTION"
echo ".nf"
"$bin" --help | esc
echo ".fi"
echo ".SH COMMANDS"
for c in $(commands); do
  echo ".SS $c"
  echo ".nf"
  "$bin" "$c" --help 2>&1 | esc || true
  echo ".fi"
done
echo ".SH FILES"
echo ".TP"
echo ".I /etc/longhaul/"
echo "configuration and, under secrets/, the credential files"
echo ".TP"
echo ".I /var/lib/longhaul/"
echo "state: the agent's spool, the services' status files"
echo ".SH SEE ALSO"
echo "The Longhaul documentation: docs/install.md and the components' READMEs of the source."
