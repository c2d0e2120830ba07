#!/usr/bin/env bash
# Install Debian packages the test tiers need when their command is missing:
#   chromium -> /usr/bin/chromium  (browser e2e, driven by playwright-core; `npx playwright install` cannot work offline)
#   qpdf     -> qpdf               (encrypts PDFs for the password-protected-PDF extraction cases)
# Only runs apt-get when something is missing; as root, or through sudo.
set -euo pipefail
missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
command -v qpdf >/dev/null || missing+=(qpdf)
((${#missing[@]})) || exit 0
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null; then
    echo "ensure-debian-packages: missing ${missing[*]}, and not root: install them (apt-get install ${missing[*]}) and run again" >&2
    exit 1
  fi
  sudo_cmd=(sudo)
fi
echo "ensure-debian-packages: installing ${missing[*]}" >&2
"${sudo_cmd[@]}" apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" fonts-dejavu-core >&2
