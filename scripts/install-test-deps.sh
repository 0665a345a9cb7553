#!/usr/bin/env bash
# Installs the Debian packages the test suites need (Chromium for Playwright, bubblewrap
# for the sandbox tests). Playwright's own browser download is never used: the suite drives
# Debian's chromium.
set -euo pipefail

# The app's own packages first: the hostile-input tests run the real sandbox.
bash "$(dirname "$0")/install-deps.sh"

packages=()
command -v chromium >/dev/null 2>&1 || packages+=(chromium)

if [ ${#packages[@]} -eq 0 ]; then
  echo "test dependencies already installed"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "installing: ${packages[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}"
