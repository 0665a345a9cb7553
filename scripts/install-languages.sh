#!/usr/bin/env bash
# Installs the Debian packages of Ensemble's languages, as their records list them
# (packages/protocol/src/languages/<id>.ts, `debianPackages`):
#
#   bash scripts/install-languages.sh default       # what the README's first command installs
#   bash scripts/install-languages.sh all           # every language (the test command does this)
#   bash scripts/install-languages.sh ruby elixir   # chosen languages, by id or alias
#   bash scripts/install-languages.sh --dry-run all # print what is missing, install nothing
#
# Needs node_modules (`npm ci`): the records are TypeScript. Runs apt only for packages that
# are not installed; uses sudo when not root. The server finds what is installed at its next
# start (GET /api/v2/runtimes); its log says why a language is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

dry_run=false
if [ "${1:-}" = "--dry-run" ]; then
  dry_run=true
  shift
fi

# An unknown id stops here, with the list of known ones (exit 2).
wanted=$(npx --no-install tsx scripts/languagePackages.ts "$@")

missing=()
for package in $wanted; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$package")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "languages ($*): Debian packages already installed"
  exit 0
fi
if [ "$dry_run" = true ]; then
  echo "would install: ${missing[*]}"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "installing: ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
