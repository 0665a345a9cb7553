#!/usr/bin/env bash
# Installs the Debian packages the app needs (run after `npm ci`): bubblewrap, the sandbox of Run Code;
# python3, which runs Python programs and the sandbox's launcher (it must be Debian's, under
# /usr: only /usr is visible inside the sandbox); and git, each session's repository (2.38+
# for merge-tree --write-tree; bookworm has 2.39); and haproxy, the load balancer of
# scripts/cluster.sh (several nodes on one machine; docs/operations.md). With --tests, also Debian's
# chromium for Playwright (its own browser download is never used), redis-server and openssl. Runs apt only when
# something is missing; uses sudo when not root. Without bwrap the server still starts, but
# Run Code answers 503 (there is no unsandboxed fallback). Last, the default languages'
# toolchains (scripts/install-languages.sh default).
set -euo pipefail

packages=()
command -v bwrap >/dev/null 2>&1 || packages+=(bubblewrap)
[ -x /usr/bin/python3 ] || packages+=(python3)
command -v git >/dev/null 2>&1 || packages+=(git)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || packages+=(haproxy)
if [ "${1:-}" = "--tests" ]; then
  command -v chromium >/dev/null 2>&1 || packages+=(chromium)
  # The cluster and rate-limit suites use a Redis at 127.0.0.1:6379 (TEST_REDIS_URL).
  command -v redis-server >/dev/null 2>&1 || packages+=(redis-server)
  # calls/turn.test.ts checks our TURN credentials against OpenSSL's HMAC.
  command -v openssl >/dev/null 2>&1 || packages+=(openssl)
fi

if [ ${#packages[@]} -eq 0 ]; then
  echo "Debian dependencies already installed"
else
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  echo "installing: ${packages[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}"
fi

# The default languages' toolchains (their records say which; needs node_modules, so `npm ci`
# first). More: scripts/install-languages.sh all, or a list of ids.
bash "$(dirname "$0")/install-languages.sh" default
