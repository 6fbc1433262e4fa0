#!/usr/bin/env bash
# Cuts release VERSION of every published module of the repository, in this
# clone, as one commit with one tag per module:
#
#   1. each library module (listwatch, dynamic, shard, controllerruntime:
#      the modules that import client-go) gets a real requirement of the root module,
#      github.com/informer-gen/informer-gen VERSION (between releases it
#      requires the previous release, and its `replace => ../` builds it
#      against the work tree; consumers ignore that replace, so the tagged
#      requirement is what they get);
#   2. the repository's modules that use a library module (e2e,
#      examples/crd, apicompat, bench, ...) are tidied, as the root module
#      they select is now VERSION; the change is committed
#      ("release VERSION");
#   3. that commit is tagged VERSION (the root module: generator and
#      runtime) and LIB/VERSION for each library module (the tag of a module
#      in a subdirectory is prefixed with the subdirectory).
#
# Every module of a release has the same version and the same commit, so a
# consumer upgrades them together. Nothing is pushed: the script prints the
# tags, one a line, and the command that publishes them.
#
# Usage: hack/release.sh vMAJOR.MINOR.PATCH[-PRERELEASE]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

module=github.com/informer-gen/informer-gen
libraries=(listwatch dynamic shard controllerruntime)

if [ $# -ne 1 ]; then
  echo "usage: hack/release.sh vMAJOR.MINOR.PATCH[-PRERELEASE]" >&2
  exit 2
fi
version=$1
semver='^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$'
if ! [[ $version =~ $semver ]]; then
  echo "release: version $version is not vMAJOR.MINOR.PATCH[-PRERELEASE]" >&2
  exit 2
fi
if [[ $version != v0.* && $version != v1.* ]]; then
  echo "release: version $version needs a /${version%%.*} suffix on every module path (Go's semantic import versioning); not supported here" >&2
  exit 2
fi
if [ -n "$(git status --porcelain)" ]; then
  echo "release: the work tree has uncommitted changes; commit or stash them first" >&2
  exit 1
fi

tags=("$version")
for lib in "${libraries[@]}"; do
  tags+=("$lib/$version")
done
for tag in "${tags[@]}"; do
  if git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
    echo "release: tag $tag already exists" >&2
    exit 1
  fi
done

for lib in "${libraries[@]}"; do
  (cd "$lib" && go mod edit -require="$module@$version" && GOWORK=off go mod tidy)
done

# The repository's other modules that build with a library module, directly
# or through another of them (bench through examples/crd): the minimal
# version selection now picks the root module at VERSION for them too, so
# their go.mod is tidied to say so. Tidied until nothing changes, as a
# module's tidy reads the go.mod of the modules it replaces with folders.
paths=()
for lib in "${libraries[@]}"; do
  paths+=("$module/$lib")
done
dependents=()
grown=1
while [ "$grown" = 1 ]; do
  grown=0
  while IFS= read -r gomod; do
    dir=$(dirname "${gomod#./}")
    path=$(awk '$1 == "module" { print $2; exit }' "$gomod")
    [[ " ${paths[*]} " == *" $path "* ]] && continue
    for p in "${paths[@]}"; do
      if grep -Eq "(^|[[:space:]])${p}[[:space:]]+v" "$gomod"; then
        dependents+=("$dir")
        paths+=("$path")
        grown=1
        break
      fi
    done
  done < <(find . \( -name '_*' -o -name .git \) -prune -o -name go.mod -print | sort)
done
for _ in 1 2 3; do
  before=$(git status --porcelain)
  for dir in "${dependents[@]}"; do
    (cd "$dir" && GOWORK=off go mod tidy)
  done
  [ "$(git status --porcelain)" = "$before" ] && break
done
git add -u -- '*go.mod' '*go.sum'
if ! git diff --cached --quiet; then
  git commit -q -m "release $version: library modules require $module $version"
fi
for tag in "${tags[@]}"; do
  git tag -a -m "informer-gen $tag" "$tag"
done

printf '%s\n' "${tags[@]}"
echo "release: tagged $(git rev-parse --short HEAD) as ${tags[*]}; publish with:" >&2
echo "  git push origin HEAD ${tags[*]}" >&2
