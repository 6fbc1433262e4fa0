#!/usr/bin/env bash
# Checks what go vet and the tests do not, over every Go module of the
# repository (the root module and each nested go.mod, testdata included):
#
#   1. gofmt: every .go file, generated ones included, is gofmt-formatted;
#   2. go mod tidy -diff: every go.mod and go.sum is tidy;
#   3. staticcheck, pinned below and built by this script through the Go
#      module proxy, with the checks of staticcheck.conf.
#
# Each failure names the file or module at fault. Every check runs even when
# an earlier one failed; the exit status is 1 when any failed. Writes nothing
# in the work tree.
#
# Usage: hack/verify-hygiene.sh
#        hack/verify-hygiene.sh --ready-on-stdin
#
# With --ready-on-stdin, staticcheck checks the modules in the order their
# folders arrive on standard input (one a line, "END" last), each as soon
# as it arrives, then every module not listed: hack/test.sh runs this
# script in the background and lists each module when its tests are done,
# so that staticcheck finds that module's -race compilations in the build
# cache (see below) instead of making them at the same time as the tests.
set -euo pipefail
case "${1:-}" in
  "" | --ready-on-stdin) ;;
  *) echo "usage: hack/verify-hygiene.sh [--ready-on-stdin]" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

staticcheck_version=v0.8.2 # staticcheck 2026.2.2, supports Go 1.26

status=0
fail() {
  echo "verify-hygiene: $*" >&2
  status=1
}

# Module folders, relative to the root; "_"-prefixed folders (scratch
# output, _output) and .git are not part of the tree.
modules=()
while IFS= read -r gomod; do
  modules+=("$(dirname "${gomod#./}")")
done < <(find . \( -name '_*' -o -name .git \) -prune -o -name go.mod -print | sort)

SECONDS=0
echo "verify-hygiene: gofmt" >&2
unformatted=$(find . \( -name '_*' -o -name .git \) -prune -o -name '*.go' -print0 | xargs -0 gofmt -l)
if [ -n "$unformatted" ]; then
  while IFS= read -r f; do
    fail "${f#./} is not gofmt-formatted (run gofmt -w ${f#./})"
  done <<<"$unformatted"
fi

echo "verify-hygiene: go mod tidy -diff (${#modules[@]} modules; ${SECONDS}s so far)" >&2
for m in "${modules[@]}"; do
  if ! out=$(cd "$m" && go mod tidy -diff 2>&1); then
    echo "$out" >&2
    fail "module $m is not tidy (run go mod tidy in $m)"
  fi
done

echo "verify-hygiene: staticcheck $staticcheck_version (${SECONDS}s so far)" >&2
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
GOBIN="$bin" go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
# staticcheck loads each package's dependencies from export data, which it
# has the go command compile (`go list -export -deps -test`, through
# golang.org/x/tools/go/packages): every dependency and every test package
# of the module. With -race in GOFLAGS these are the very compilations
# `go test -race` makes (same build flags, same cache keys): hack/test.sh
# runs staticcheck on each module after that module's tests, and
# staticcheck finds them in the build cache instead of compiling everything
# a second time without -race (measured in CONTRIBUTING.md, "Where the time
# goes"). It checks the same files, except that the "race" build tag
# selects conformance/race_test.go over norace_test.go (each declares
# only the constant raceEnabled), which the race-enabled go vet and tests
# read too.
sc_goflags="$(go env GOFLAGS) -race"
declare -A checked=()
staticcheck_module() {
  local m=$1 start=$SECONDS out
  checked[$m]=1
  # Modules holding only build-tagged tool imports (hack/tools, bench/tools)
  # have no package to check.
  if [ -z "$(cd "$m" && go list ./... 2>/dev/null)" ]; then
    return
  fi
  if ! out=$(cd "$m" && GOFLAGS="$sc_goflags" "$bin/staticcheck" ./... 2>&1); then
    echo "$out" | sed "s|^|$m: |" >&2
    fail "staticcheck found problems in module $m (see staticcheck.conf for the checks)"
  fi
  echo "verify-hygiene: staticcheck $m: $((SECONDS - start))s" >&2
}
if [ "${1:-}" = --ready-on-stdin ]; then
  # The list on fd 3; the go commands get no standard input to read from.
  exec 3<&0 </dev/null
  while IFS= read -r m <&3 && [ "$m" != END ]; do
    m=${m#./}
    m=${m:-.}
    if [ -z "${checked[$m]+x}" ] && [ -f "$m/go.mod" ]; then
      staticcheck_module "$m"
    fi
  done
fi
for m in "${modules[@]}"; do
  [ -n "${checked[$m]+x}" ] || staticcheck_module "$m"
done

if [ "$status" = 0 ]; then
  echo "verify-hygiene: gofmt, go mod tidy and staticcheck are clean (${SECONDS}s)" >&2
fi
exit "$status"
