#!/usr/bin/env bash
# The whole test suite, as CI runs it: lint, typecheck, unit + integration tests (against sandboxes
# started by the tests over real HTTP), then the end-to-end tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*"; }
step "lint (eslint, knip)"; npm run --silent lint
step "typecheck";   npx tsc --noEmit
step "unit + integration (vitest)"; npx vitest run
step "end-to-end (Playwright, Chromium)"; bash scripts/e2e.sh
