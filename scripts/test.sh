#!/usr/bin/env bash
# The whole test suite, as CI runs it: lint, unit + integration tests (against sandboxes started by
# the tests over real HTTP; the store's against SQLite and a PostgreSQL they start), the build, then
# against the build: the system tests (the routes' refusals from one production server), the
# end-to-end tests in Chromium, and several instances of the built app sharing a redis-server
# (installed with apt-get when missing, as PostgreSQL is). Types are checked by the build (`next
# build` type-checks every file in tsconfig's include, tests too), so there is no separate `tsc`
# pass; `npm run typecheck` runs one on its own. The build is made once, here; every later step uses it.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase prints its wall time when the next begins, and the run ends with the table of them.
started=$SECONDS; phase=""; phase_at=$SECONDS; times=()
step() {
  if [ -n "$phase" ]; then times+=("$(printf '%5ss  %s' $((SECONDS - phase_at)) "$phase")"); printf '   (%ss)\n' $((SECONDS - phase_at)); fi
  phase="$*"; phase_at=$SECONDS
  [ -n "$phase" ] && printf '\n== %s\n' "$phase"
  return 0
}
step "lint (prettier, eslint, knip)"; npm run --silent lint
# The Redis tests' server and the store tests' PostgreSQL, installed once here (apt-get when missing)
# rather than by parallel test workers.
step "redis-server for the Redis tests"; bash scripts/ensure-redis.sh
step "PostgreSQL for the store tests"; bash scripts/ensure-postgres.sh
step "unit + integration (vitest)"; npx vitest run
step "build (type-checks every file)"; npx next build
step "system (every route's refusals from one production server of the build)"; npm run --silent test:system
step "end-to-end (Playwright, Chromium)"; SKIP_BUILD=1 bash scripts/e2e.sh
step "several instances (redis-server + two production instances of the build)"; npm run --silent test:cluster
step ""
printf '\n== phases\n'; printf '%s\n' "${times[@]}"; printf '%5ss  in all\n' $((SECONDS - started))
