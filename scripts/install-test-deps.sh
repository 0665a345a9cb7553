#!/usr/bin/env bash
# Installs the Debian packages the test suites need: the app's own (the hostile-input tests
# run the real sandbox) and chromium for Playwright.
set -euo pipefail
exec bash "$(dirname "$0")/install-deps.sh" --tests
