#!/usr/bin/env bash
# Cuts release VERSION of every published module of the repository, in this
# clone, as one commit with one tag per module:
#
#   1. each library module (listwatch, dynamic, shard: the modules that
#      import client-go) gets a real requirement of the root module,
#      github.com/informer-gen/informer-gen VERSION (between releases it
#      requires the previous release, and its `replace => ../` builds it
#      against the work tree; consumers ignore that replace, so the tagged
#      requirement is what they get);
#   2. the change is committed ("release VERSION");
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
libraries=(listwatch dynamic shard)

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
  git add -- "$lib/go.mod" "$lib/go.sum"
done
if ! git diff --cached --quiet; then
  git commit -q -m "release $version: library modules require $module $version"
fi
for tag in "${tags[@]}"; do
  git tag -a -m "informer-gen $tag" "$tag"
done

printf '%s\n' "${tags[@]}"
echo "release: tagged $(git rev-parse --short HEAD) as ${tags[*]}; publish with:" >&2
echo "  git push origin HEAD ${tags[*]}" >&2
