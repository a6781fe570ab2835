#!/usr/bin/env bash
# The whole test suite, as CI runs it: lint, unit + integration tests (against sandboxes started by
# the tests over real HTTP; the store's against SQLite and a PostgreSQL they start), the build, then
# against the build: the system tests (the routes and the production entry over HTTP, from one
# production server per store), the end-to-end tests in Chromium, and several instances of the built
# app sharing a redis-server and a PostgreSQL (installed with apt-get when missing). Types are checked
# by the build (`next build` type-checks every file in tsconfig's include, tests too), so there is no
# separate `tsc` pass; `npm run typecheck` runs one on its own. The build is made once, here; every
# later step uses it.
#
# Phases that can share the machine's two cores run side by side: lint, the build and the system tests
# beside the unit tests, and the several-instances tests (mostly waiting) beside the end-to-end tests.
# Each phase's output is printed whole when it ends, with its wall time; the run ends with the table of
# them. A failed phase fails the run once the phases beside it have ended too, and its output is
# printed with the failure.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
logs=$(mktemp -d "${TMPDIR:-/tmp}/wa-test-XXXXXX")
trap 'rm -rf "$logs"' EXIT
times=()
failed=()
declare -A pids=() starts=() titles=()

# Starts phase `name` (titled `title`) in the background: `run name title command...`; `run_beside`
# starts it at a lower priority (nice 10), to take the time the phases at the normal one leave.
run_beside() {
  niceness=10 run "$@"
}
run() {
  local name=$1 title=$2
  shift 2
  titles[$name]=$title
  starts[$name]=$(date +%s)
  printf '== %s: started\n' "$title"
  # setsid: the phase and everything it starts form one process group, stopped together if need be.
  # The phase notes when it ended, for its time (it may end before the run asks).
  nice -n "${niceness:-0}" setsid -w bash -c '"$@"; status=$?; date +%s >"$0"; exit $status' "$logs/$name.end" "$@" >"$logs/$name.log" 2>&1 &
  pids[$name]=$!
}

# Whether phase `name` has ended (it notes when, as its last act).
ended() {
  [ -e "$logs/$1.end" ]
}

# Gives every phase still running the normal priority again (once the phase it gave way to has ended).
# Raising a priority needs root (CI's user); without it they go on at their own.
renice_all() {
  local name
  for name in "${!pids[@]}"; do renice -n 0 -g "${pids[$name]}" >/dev/null 2>&1 || true; done
}

# Waits for phase `name`, then prints its output and time (and records a failure).
finish() {
  local name=$1 status=0
  wait "${pids[$name]}" || status=$?
  local took=$(($(cat "$logs/$name.end" 2>/dev/null || date +%s) - ${starts[$name]}))
  printf '\n== %s\n' "${titles[$name]}"
  cat "$logs/$name.log"
  if [ "$status" -eq 0 ]; then
    printf '   (%ss)\n' "$took"
    times+=("$(printf '%5ss  %s' "$took" "${titles[$name]}")")
  else
    printf '   FAILED (exit %s after %ss)\n' "$status" "$took"
    times+=("$(printf '%5ss  %s  FAILED' "$took" "${titles[$name]}")")
    failed+=("${titles[$name]}")
  fi
  unset "pids[$name]"
}

# Stops every phase still running (after a failure, or when the run is interrupted), with what it said so far.
stop_all() {
  local name
  for name in "${!pids[@]}"; do kill -TERM -- "-${pids[$name]}" 2>/dev/null || true; done
  for name in "${!pids[@]}"; do
    wait "${pids[$name]}" 2>/dev/null || true
    printf '\n== %s: stopped after %ss\n' "${titles[$name]}" $(($(date +%s) - ${starts[$name]}))
    cat "$logs/$name.log"
    unset "pids[$name]"
  done
}
trap 'stop_all; exit 130' INT TERM

# Ends the run when a phase has failed: what ran is in the table, the failures named last.
check() {
  [ "${#failed[@]}" -eq 0 ] && return 0
  summary
  printf '\nFAILED: %s\n' "${failed[@]}"
  exit 1
}

summary() {
  printf '\n== phases\n'
  printf '%s\n' "${times[@]}"
  printf '%5ss  in all\n' $((SECONDS - started))
}

# The Redis tests' server and the store tests' PostgreSQL, installed once here (apt-get when missing)
# rather than by parallel test workers.
run servers "redis-server and PostgreSQL for the tests" bash -c 'bash scripts/ensure-redis.sh && bash scripts/ensure-postgres.sh'
finish servers
check

# The unit tests keep both cores busy but for their gaps (servers starting, the last long files): lint
# and the build run in those gaps, at a lower priority so the unit tests' own time is never theirs (and
# at the normal one once the unit tests have ended), then the system tests (their two production
# servers do the work); not beside the end-to-end tests, the layer that is most the machine's.
# Prettier, eslint and knip keep their caches in node_modules/.cache (nothing to reuse on a clean
# clone; a second run checks only what changed).
run unit "unit + integration (vitest)" npx vitest run
run_beside lint "lint (prettier, eslint, knip)" npm run --silent lint
run_beside build "build (type-checks every file)" npx next build
until ended build; do
  if ended unit; then renice_all; fi
  sleep 1
done
finish build
# The system tests' servers answer within the tests' timeouts: at the normal priority.
if [ "${#failed[@]}" -eq 0 ]; then run system "system (the production server of the build, over HTTP)" npm run --silent test:system; fi
finish unit
renice_all
finish lint
if [ -n "${pids[system]:-}" ]; then finish system; fi
check

# The end-to-end tests hold fixed ports (E2E_PORT, E2E_SANDBOX_PORT); the several-instances tests,
# mostly waiting on their instances' timers and receivers, start theirs on free ones beside them.
run e2e "end-to-end (Playwright, Chromium)" env SKIP_BUILD=1 bash scripts/e2e.sh
run cluster "several instances (redis-server, PostgreSQL, two production instances of the build)" npm run --silent test:cluster
finish cluster
finish e2e
check

summary
