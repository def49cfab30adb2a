#!/usr/bin/env bash
# make check: the fast inner loop. Formatters, linters and the unit tests of every language, and
# the generated files against a fresh generation, without starting any service. Runs every stage
# even after one fails, prints each stage's time, and exits 1 if any failed.
#   scripts/check.sh                 every stage
#   scripts/check.sh gofmt vet ...   only those (tests/unit/test_check.py runs single stages on a
#                                     temporary copy of a few files)
# Stages check the tree this script sits in. Versions: staticcheck in tools/go.mod, ruff in
# tests/requirements.txt, google-java-format in flink-jobs/pom.xml (Spotless), shellcheck Debian's.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 1
export PATH="/usr/local/go/bin:$PATH"
PY="$ROOT/.venv/bin/python"
JDK="${LONGHAUL_JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"

# The project's files of one kind (find's tests: -name PATTERN, -o, parentheses), outside what
# builds and caches write. In a git work tree only the tracked files and the new ones git does not
# ignore: nothing a build, a release or the stack left (dist/, .stack/, bin/, target/: .gitignore)
# is judged, whatever ran before. A copy without .git (tests/unit/test_check.py) takes every file.
project_files() {
  local found
  found="$(find . \( -name .git -o -name .venv -o -name '.stack*' -o -name node_modules -o -name target \
    -o -name bin -o -name out -o -name dist \) -prune -o -type f "$@" -print | sed 's|^\./||' | sort)"
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    comm -12 <(echo "$found") <(git ls-files --cached --others --exclude-standard | sort)
  else
    echo "$found"
  fi
}

# Shell scripts: *.sh and extensionless files whose first line names a shell.
shell_files() {
  project_files \( -name '*.sh' -o ! -name '*.*' \) | while read -r f; do
    case "$f" in
      *.sh) echo "$f" ;;
      *) grep -qE '^#!.*/(env )?(ba)?sh\b' <<<"$(head -n 1 "$f" 2>/dev/null | tr -d '\0')" && echo "$f" ;;
    esac
  done
}

stage_gofmt() {
  local bad
  mapfile -t bad < <(project_files -name '*.go' | xargs -r gofmt -l)
  [ "${#bad[@]}" = 0 ] && return 0
  echo "not gofmt-formatted (gofmt -w FILE):"
  printf '  %s\n' "${bad[@]}"
  return 1
}

stage_vet() {
  go vet ./... && go vet -tags integration ./...
}

stage_staticcheck() {
  local sc=(go tool -modfile=tools/go.mod staticcheck)
  "${sc[@]}" ./... && "${sc[@]}" -tags integration ./...
}

# -short skips the parsers' 50 MB bounds (probekit/golden.Long); the private-broker tests are
# integration-tagged and the long fuzz runs belong to make test-go.
stage_gotest() {
  go test -short ./...
}

stage_contract() {
  go run ./ingest/gen -root . -check && echo "the contract's generated Go and Java are fresh"
}

# the systemd units and the native stack's services.env against deploy/services.yaml's rendering
stage_deploy() {
  go run ./deploy/gen -root . -check && echo "the units and services.env are deploy/services.yaml's rendering"
}

stage_dashboards() {
  local fresh
  fresh="$(mktemp)"
  (cd dashboards/schema-tools && node generate.js "$fresh" >/dev/null) || { rm -f "$fresh"; return 1; }
  if cmp -s "$fresh" dashboards/schema/dashboard.schema.json; then
    rm -f "$fresh"
    echo "dashboards/schema/dashboard.schema.json is fresh"
    return 0
  fi
  rm -f "$fresh"
  echo "dashboards/schema/dashboard.schema.json differs from its generator (cd dashboards/schema-tools && npm run schema)"
  return 1
}

# javac with -Xlint and -Werror (flink-jobs/pom.xml), google-java-format, the unit tests
stage_java() {
  (cd flink-jobs && JAVA_HOME="$JDK" mvn -B -q -Dstyle.color=never -Dmaven.test.redirectTestOutputToFile=true spotless:check test)
}

stage_ruff() {
  "$ROOT/.venv/bin/ruff" check . && "$ROOT/.venv/bin/ruff" format --check .
}

stage_pytest() {
  "$PY" -m pytest -q -p no:cacheprovider ingest/tests tests/unit
}

stage_shellcheck() {
  local files
  mapfile -t files < <(shell_files)
  shellcheck "${files[@]}" && echo "shellcheck: ${#files[@]} scripts clean" && no_early_grep "${files[@]}"
}

# Under pipefail, a grep -q after a pipe fails whenever grep quits at its first match while the
# command before it still writes (that command dies of SIGPIPE): a check that holds reads as false,
# now and then (CI's red of 060e2f4: testbed.sh took a shaped link for an unshaped one). Grep the
# whole output instead: grep -q PATTERN <<<"$(cmd)". Comments are not code.
no_early_grep() {
  local hits
  hits=$(grep -nE '(^|[^|])[|][[:space:]]*grep[[:space:]]+-[a-zA-Z]*q' "$@" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*#') || true
  [ -z "$hits" ] && return 0
  echo "a grep -q after a pipe can fail a true check under pipefail (grep -q PATTERN <<<\"\$(cmd)\"):"
  printf '  %s\n' "$hits"
  return 1
}

ALL=(gofmt vet staticcheck contract deploy gotest ruff shellcheck pytest dashboards java)

main() {
  local stages=("$@") s t0 rc failed=() times=() start=$SECONDS
  [ "${#stages[@]}" -gt 0 ] || stages=("${ALL[@]}")
  for s in "${stages[@]}"; do
    declare -F "stage_$s" >/dev/null || { echo "check.sh: no stage $s (stages: ${ALL[*]})" >&2; exit 2; }
  done
  for s in "${stages[@]}"; do
    printf '\n=== check: %s\n' "$s"
    t0=$SECONDS
    "stage_$s"
    rc=$?
    times+=("$(printf '%-12s %4d s  %s' "$s" $((SECONDS - t0)) "$([ "$rc" = 0 ] && echo ok || echo FAILED)")")
    [ "$rc" = 0 ] || failed+=("$s")
  done
  printf '\n=== check: stage times\n'
  printf '  %s\n' "${times[@]}"
  echo "check: $((SECONDS - start)) s in all; ${#failed[@]} of ${#stages[@]} stages failed${failed[*]:+: ${failed[*]}}"
  [ "${#failed[@]}" = 0 ]
}

main "$@"
