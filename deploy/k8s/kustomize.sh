#!/usr/bin/env bash
# Build a kustomize overlay offline with kubectl's built-in kustomize (see deploy/tools/k8s-tool.sh).
# Usage: deploy/k8s/kustomize.sh deploy/k8s/overlays/dev   (prints the manifests)
exec "$(dirname "${BASH_SOURCE[0]}")/../tools/k8s-tool.sh" kubectl kustomize "$@"
