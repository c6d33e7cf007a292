#!/usr/bin/env bash
# `npm run test:mutation`: Stryker (stryker.config.mjs) at the lowest priority, with one throw-away
# PostgreSQL for the unit tests that run on both databases. Without it, each of those tests starts
# a server of its own, initdb included, again for every mutant it covers.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/pg-test-server.sh
trap pg_test_stop EXIT
nice -n 19 npx stryker run "$@"
