#!/usr/bin/env bash
# The whole test suite, as CI runs it: lint, unit + integration tests (against sandboxes started by
# the tests over real HTTP; the store's against SQLite and a PostgreSQL they start), the end-to-end
# tests in Chromium, then several instances of the built app sharing a redis-server (installed with
# apt-get when missing, as PostgreSQL is). Types are checked by the build the end-to-end step makes
# (`next build` type-checks every file in tsconfig's include, tests too), so there is no separate
# `tsc` pass; `npm run typecheck` runs one on its own.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*"; }
step "lint (eslint, knip)"; npm run --silent lint
# The Redis tests' server and the store tests' PostgreSQL, installed once here (apt-get when missing)
# rather than by parallel test workers.
step "redis-server for the Redis tests"; bash scripts/ensure-redis.sh
step "PostgreSQL for the store tests"; bash scripts/ensure-postgres.sh
step "unit + integration (vitest)"; npx vitest run
step "build (type-checks every file) and end-to-end (Playwright, Chromium)"; bash scripts/e2e.sh
step "several instances (redis-server + two production instances of the build)"; npm run --silent test:cluster
