#!/usr/bin/env bash
# Fails when the checked-in generated code of the example CRD project is not
# what hack/update-codegen.sh produces. It regenerates into a temporary copy
# of the module (the work tree is left untouched) and diffs the copy against
# the original.
set -euo pipefail

mod_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repo_root=$(cd "$mod_dir/../.." && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
copy="$tmp/crd"
mkdir -p "$copy"
# Copy the module (tracked and untracked files alike, to check what is on
# disk), then point its replace directive at the real repository root.
tar -C "$mod_dir" --exclude=.git -cf - . | tar -C "$copy" -xf -
(cd "$copy" && go mod edit -replace "github.com/informer-gen/informer-gen=$repo_root")

INFORMER_GEN_ROOT="$repo_root" "$copy/hack/update-codegen.sh"

# go.mod/go.sum of the copy differ by the replace directive only.
if ! diff -ru --exclude=go.mod --exclude=go.sum "$mod_dir" "$copy"; then
  echo "verify-codegen.sh: generated code is out of date; run examples/crd/hack/update-codegen.sh" >&2
  exit 1
fi
echo "verify-codegen.sh: generated code is up to date" >&2
