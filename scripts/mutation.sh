#!/usr/bin/env bash
# `npm run test:mutation`: Stryker (stryker.config.mjs) at the lowest priority, with one throw-away
# PostgreSQL for the unit tests that run on both databases. Without it, each of those tests starts
# a server of its own, initdb included, again for every mutant it covers.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/pg-test-server.sh
trap pg_test_stop EXIT
# In a session of its own, as nice as its processes: with the kernel's autogroups (one per
# session), `nice` only ranks a session's own processes, and the run would take a full share of
# the CPU from every other session. Ctrl-C (or a TERM) ends it with all it started.
setsid bash -c 'echo 19 2>/dev/null >/proc/self/autogroup || true; exec nice -n 19 npx stryker run "$@"' \
  stryker "$@" &
run=$!
trap 'kill -TERM -- "-$run" 2>/dev/null || true' INT TERM
wait "$run"
