#!/usr/bin/env bash
# Regenerates every generated file of the example CRD project:
#   1. apis/**/zz_generated.deepcopy.go        (upstream deepcopy-gen)
#   2. pkg/generated/clientset/versioned/...   (upstream client-gen)
#   3. `go generate ./...`                     (our informer-gen: informers
#      and listers under pkg/generated/, driven by //go:generate lines)
# The upstream generators are built from hack/tools by hack/kube-binaries.sh.
#
# Environment:
#   INFORMER_GEN_ROOT  root of the informer-gen repository (default: ../..
#                      from the example module); verify-codegen.sh sets it
#                      when it regenerates a copy of the module elsewhere.
set -euo pipefail

mod_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repo_root=${INFORMER_GEN_ROOT:-$(cd "$mod_dir/../.." && pwd)}
mod_path=github.com/informer-gen/informer-gen/examples/crd
boilerplate="$mod_dir/hack/boilerplate.go.txt"

eval "$("$repo_root/hack/kube-binaries.sh" client-gen deepcopy-gen | sed 's/^\([a-z]*\)-gen=/\1_gen=/')"

cd "$mod_dir"

# API packages: every directory with a package-level deepcopy-gen tag.
api_pkgs=()
while IFS= read -r f; do
  api_pkgs+=("$mod_path/$(dirname "${f#./}")")
done < <(grep -rl --include='*.go' -e '^// +k8s:deepcopy-gen=package' ./apis | sort)
if [ ${#api_pkgs[@]} -eq 0 ]; then
  echo "update-codegen.sh: no API packages under apis/" >&2
  exit 1
fi

echo "deepcopy-gen: ${api_pkgs[*]}" >&2
find ./apis -name zz_generated.deepcopy.go -delete
"$deepcopy_gen" \
  --output-file zz_generated.deepcopy.go \
  --go-header-file "$boilerplate" \
  "${api_pkgs[@]}"

# client-gen inputs are "<group>/<version>" relative to --input-base.
inputs=()
for p in "${api_pkgs[@]}"; do
  inputs+=(--input "${p#"$mod_path/apis/"}")
done
echo "client-gen: ${inputs[*]}" >&2
rm -rf ./pkg/generated/clientset
"$client_gen" \
  --go-header-file "$boilerplate" \
  --output-dir "$mod_dir/pkg/generated/clientset" \
  --output-pkg "$mod_path/pkg/generated/clientset" \
  --clientset-name versioned \
  --input-base "$mod_path/apis" \
  "${inputs[@]}"

# Informers and listers: our informer-gen, run through the //go:generate
# directive in generate.go (built from the repository beside this module).
echo "go generate ./..." >&2
go generate ./...
