#!/usr/bin/env bash
# buf breaking: refuse wire- or JSON-breaking changes to proto/ against a git ref (default: where the
# branch left main, so a main that moved on is not mistaken for deletions; on main itself, which is
# what CI checks out, the previous commit). The ref's proto/ is taken with `git archive`, so it works
# in worktrees and shallow-enough clones alike.
# Usage: deploy/tools/proto-breaking.sh [REF]      (env PROTO_AGAINST also names the ref)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
branch="$(git rev-parse --abbrev-ref HEAD 2>/dev/null || echo HEAD)"
if [[ "$branch" == main ]] || ! git rev-parse -q --verify main >/dev/null; then
  default='HEAD~1'
else
  default="$(git merge-base HEAD main)"
fi
ref="${1:-${PROTO_AGAINST:-$default}}"
if ! git rev-parse -q --verify "$ref^{commit}" >/dev/null; then
  echo "proto-breaking: $ref is not a commit here; nothing to compare against" >&2
  exit 0
fi
if ! git cat-file -e "$ref:proto/buf.yaml" 2>/dev/null; then
  echo "proto-breaking: $ref has no proto/ module yet; nothing to compare against" >&2
  exit 0
fi
against="$(mktemp -d)"
trap 'rm -rf "$against"' EXIT
git archive "$ref" proto | tar -x -C "$against"
"$root/node_modules/.bin/buf" breaking proto --against "$against/proto"
echo "proto-breaking: no breaking change against $ref"
