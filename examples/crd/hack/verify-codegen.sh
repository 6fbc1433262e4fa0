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
# Mirror the repository layout so that the relative paths of the module
# (replace => ../.., go:generate's -C ../..) resolve: the rest of the
# repository is symlinked, only examples/crd is a real copy, and the
# informer-gen binary the go:generate line builds lands in $tmp/_output.
for entry in "$repo_root"/* "$repo_root"/.[!.]*; do
  [ -e "$entry" ] || continue
  case "$(basename "$entry")" in
    examples | _output | .git) ;;
    *) ln -s "$entry" "$tmp/$(basename "$entry")" ;;
  esac
done
copy="$tmp/examples/crd"
mkdir -p "$copy"
tar -C "$mod_dir" -cf - . | tar -C "$copy" -xf -

# The upstream generators still come from the real repository's _output/bin.
INFORMER_GEN_ROOT="$repo_root" "$copy/hack/update-codegen.sh"

if ! diff -ru "$mod_dir" "$copy"; then
  echo "verify-codegen.sh: generated code is out of date; run examples/crd/hack/update-codegen.sh" >&2
  exit 1
fi
echo "verify-codegen.sh: generated code is up to date" >&2
