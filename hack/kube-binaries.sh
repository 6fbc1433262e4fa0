#!/usr/bin/env bash
# Builds the tools the end-to-end tests and the example code generation need,
# from the Go modules pinned in hack/tools/go.mod, into _output/bin/:
#
#   kube-apiserver  (k8s.io/kubernetes/cmd/kube-apiserver)
#   etcd            (go.etcd.io/etcd/server/v3)
#   client-gen      (k8s.io/code-generator/cmd/client-gen)
#   deepcopy-gen    (k8s.io/code-generator/cmd/deepcopy-gen)
#
# Only Go is needed (modules come from the module proxy). A build happens only
# when a binary is missing or the stamp (hash of hack/tools/go.mod, go.sum,
# this script and `go version`) changed; otherwise the script returns at once. The first build
# takes several minutes on a small machine; later ones are served by the Go
# build cache. Concurrent invocations are serialised per tool with flock when
# available.
#
# Output: one line per tool, "name=/absolute/path", on stdout. Progress goes to
# stderr.
#
# Usage: hack/kube-binaries.sh [name...]   (default: all four tools)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools_dir="$root/hack/tools"
bin_dir="${KUBE_BINARIES_DIR:-$root/_output/bin}"
mkdir -p "$bin_dir"

declare -A pkgs=(
  [kube-apiserver]=k8s.io/kubernetes/cmd/kube-apiserver
  [etcd]=go.etcd.io/etcd/server/v3
  [client-gen]=k8s.io/code-generator/cmd/client-gen
  [deepcopy-gen]=k8s.io/code-generator/cmd/deepcopy-gen
)

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=(kube-apiserver etcd client-gen deepcopy-gen)
fi
for n in "${names[@]}"; do
  if [ -z "${pkgs[$n]+x}" ]; then
    echo "kube-binaries.sh: unknown tool $n (known: ${!pkgs[*]})" >&2
    exit 2
  fi
done

# Concurrent runs are serialised per tool (several test binaries may start
# at once, and hack/test.sh builds kube-apiserver and etcd in the background
# while steps that need only client-gen run): a run waits on the lock of the
# tool it is about to build or check, not on the other tools.
lock() {
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$bin_dir/.$1.lock"
    flock 9
  fi
}

stamp=$( { cat "$tools_dir/go.mod" "$tools_dir/go.sum" "${BASH_SOURCE[0]}"; go version; } | sha256sum | cut -d' ' -f1)

# Version stamping of kube-apiserver, as the release build does, so that
# /version reports the pinned release instead of v0.0.0-master.
ldflags() {
  case "$1" in
    kube-apiserver)
      local v major minor
      v=$(cd "$tools_dir" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
      major=${v#v}; major=${major%%.*}
      minor=${v#v"$major".}; minor=${minor%%.*}
      local pkg=k8s.io/component-base/version
      echo "-X $pkg.gitVersion=$v -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
      ;;
  esac
}

for n in "${names[@]}"; do
  out="$bin_dir/$n"
  stamp_file="$bin_dir/.$n.stamp"
  lock "$n"
  if [ -x "$out" ] && [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ]; then
    continue
  fi
  echo "kube-binaries.sh: building $n from ${pkgs[$n]} (first build can take several minutes)" >&2
  start=$(date +%s)
  # CGO off: static binaries, no C toolchain needed. -trimpath keeps the
  # build reproducible across checkouts so the build cache is shared.
  (cd "$tools_dir" && CGO_ENABLED=0 go build -trimpath -ldflags "$(ldflags "$n")" -o "$out.tmp.$$" "${pkgs[$n]}")
  mv -f "$out.tmp.$$" "$out"
  echo "$stamp" >"$stamp_file"
  echo "kube-binaries.sh: built $n in $(( $(date +%s) - start ))s" >&2
done

for n in "${names[@]}"; do
  echo "$n=$bin_dir/$n"
done
