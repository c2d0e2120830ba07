#!/usr/bin/env bash
# Make the Secrets the Helm chart names but never generates (charts/kaboodle/README.md, "Secrets to
# create"), with random values, in a namespace. A Secret that exists is left as it is, so this is
# safe to run again and never rotates a password behind a running cluster's back.
# Usage: deploy/k8s/create-secrets.sh <namespace> <release>      (needs kubectl and openssl)
set -euo pipefail
ns="${1:?usage: create-secrets.sh <namespace> <release>}"
release="${2:?usage: create-secrets.sh <namespace> <release>}"
name="$release-kaboodle"
[[ "$release" == *kaboodle* ]] && name="$release"
rand() { openssl rand -hex 24; }

make_secret() { # name, then kubectl create secret arguments
  local secret="$1"
  shift
  if kubectl -n "$ns" get secret "$secret" >/dev/null 2>&1; then
    echo "kept:    $secret"
  else
    kubectl -n "$ns" create secret "$@" >/dev/null
    echo "created: $secret"
  fi
}

for svc in auth ingestion catalogue; do
  make_secret "$name-pg-$svc" generic "$name-pg-$svc" --type=kubernetes.io/basic-auth \
    --from-literal=username="$svc" --from-literal=password="$(rand)"
done
make_secret "$name-pg-backup" generic "$name-pg-backup" \
  --from-literal=ACCESS_KEY_ID="pg-backup-$(openssl rand -hex 4)" --from-literal=ACCESS_SECRET_KEY="$(rand)"
root_user="root-$(openssl rand -hex 4)"
make_secret "$name-minio-root" generic "$name-minio-root" \
  --from-literal=config.env="$(printf 'export MINIO_ROOT_USER=%s\nexport MINIO_ROOT_PASSWORD=%s\n' "$root_user" "$(rand)")"
for svc in ingestion processing catalogue; do
  make_secret "$name-minio-$svc" generic "$name-minio-$svc" \
    --from-literal=S3_ACCESS_KEY="kaboodle-$svc" --from-literal=S3_SECRET_KEY="$(rand)"
done
make_secret "$name-es-search" generic "$name-es-search" --type=kubernetes.io/basic-auth \
  --from-literal=username=kaboodle-search --from-literal=password="$(rand)" --from-literal=roles=kaboodle_search
