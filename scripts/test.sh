#!/usr/bin/env bash
# `npm test`: lint, type-check, unit tests, then the HTTP suite against a real `next start`,
# once on the embedded database and once on a real PostgreSQL started here.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "lint"
npx biome check .
step "type-check"
npx tsc --noEmit
step "unit tests"
npx vitest run --project unit
step "build"
npx next build >/tmp/crewdeck-build.log 2>&1 || { cat /tmp/crewdeck-build.log; exit 1; }
tail -n 25 /tmp/crewdeck-build.log
step "HTTP tests — embedded database"
TEST_DB=embedded npx vitest run --project http
step "HTTP tests — PostgreSQL"
source scripts/pg-test-server.sh
trap pg_test_stop EXIT
TEST_DB=postgres npx vitest run --project http
pg_test_stop
trap - EXIT
step "Reliability — short form of npm run test:chaos"
CHAOS_EXECUTIONS=${CHAOS_EXECUTIONS:-40} CHAOS_KILL_EVERY_MS=${CHAOS_KILL_EVERY_MS:-1500} \
  npx vitest run --project chaos
step "Browser tests — Playwright in Debian's Chromium"
npx playwright test
