#!/usr/bin/env bash
# `npm run test:chaos`: the reliability suite at full size — 10,000 fuzz cases against every
# endpoint, then 200 executions on 2 web instances + 2 workers with a worker SIGKILLed every 3 s
# and PostgreSQL stopped for 10 s; then two workers nobody replaces riding out PostgreSQL crashing
# (pg_ctl -m immediate) while each is mid-transaction. Each starts its own PostgreSQL; CHAOS_* and
# FUZZ_CASES override.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f .next/BUILD_ID ] || npx next build
FUZZ_CASES=${FUZZ_CASES:-10000} TEST_DB=embedded npx vitest run --project http tests/http/fuzz.test.ts
npx vitest run --project chaos
