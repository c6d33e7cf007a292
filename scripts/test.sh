#!/usr/bin/env bash
# `npm test`: lint, type-check, unit tests, then the HTTP suite against a real `next start`,
# once on the embedded database and once on a real PostgreSQL started here. Prints each step's
# time at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

timings=()
current=""
started=0
finish() {
  [ -n "$current" ] && timings+=("$(printf '%6ds  %s' $(($(date +%s) - started)) "$current")")
  current=""
}
step() {
  finish
  current="$*"
  started=$(date +%s)
  printf '\n\033[1m== %s\033[0m\n' "$*"
}
report() {
  finish
  printf '\n\033[1m== step times\033[0m\n'
  printf '%s\n' "${timings[@]}"
}

step "lint"
npx biome check .
step "type-check"
npx tsc --noEmit
# One throw-away PostgreSQL for the unit tests that run on both databases and the HTTP suite.
source scripts/pg-test-server.sh
trap 'pg_test_stop; report' EXIT
step "unit tests"
npx vitest run --project unit
step "build"
npx next build >/tmp/crewdeck-build.log 2>&1 || { cat /tmp/crewdeck-build.log; exit 1; }
tail -n 25 /tmp/crewdeck-build.log
step "HTTP tests — embedded database"
TEST_DB=embedded npx vitest run --project http
step "HTTP tests — PostgreSQL"
TEST_DB=postgres npx vitest run --project http
step "Reliability — short form of npm run test:chaos"
CHAOS_EXECUTIONS=${CHAOS_EXECUTIONS:-40} CHAOS_KILL_EVERY_MS=${CHAOS_KILL_EVERY_MS:-1500} \
  npx vitest run --project chaos
step "Browser tests — Playwright in Debian's Chromium"
npx playwright test
