#!/usr/bin/env bash
# Installs the Debian packages the test suites need: the app's own (the hostile-input tests
# run the real sandbox), chromium for Playwright, and every language's toolchain
# (languages.int.test.ts runs each record in the real sandbox).
set -euo pipefail
bash "$(dirname "$0")/install-deps.sh" --tests
exec bash "$(dirname "$0")/install-languages.sh" all
