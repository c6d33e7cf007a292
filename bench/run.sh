#!/usr/bin/env bash
# `npm run bench`: build if needed, start a throw-away PostgreSQL on loopback, run the benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f .next/BUILD_ID ] || npx next build
source scripts/pg-test-server.sh
trap pg_test_stop EXIT
node bench/status.mjs
node bench/webhooks.mjs
DATABASE_URL="${TEST_PG_URL%/*}/crewdeck_bench" node bench/webhooks.mjs
node bench/webhook-throughput.mjs # pre-filled outbox: deliveries/s, embedded and PostgreSQL
node --conditions=react-server --import tsx bench/tracker-search.ts
node bench/kickoff.mjs
node bench/engine.mjs
node bench/status-scale.mjs # SCALE_EMBEDDED=1: also on the embedded database (+~4 min)
node bench/live-subscribers.mjs
node bench/memory.mjs
node bench/remote-timeline.mjs
node bench/sign-in-flood.mjs
node bench/schedule-lateness.mjs # how late schedules fire, idle and under kickoff load (~5 min)
node bench/experiment-cells.mjs # 1,000 experiment cells against as many kickoffs (~1 min)
node bench/caller-budgets.mjs # the inputs that once held the process, /api/healthz probed throughout (~2 min)
node --conditions=react-server --import tsx bench/cel-cost.ts # the costliest CEL each kind of work may run within its limit
node bench/agent-protocols.mjs # MCP tools/list and A2A GetTask beside the HTTP reads they stand for (~2 min)
node bench/browser-cost.mjs # what a browser test action costs Chromium, per Debian build
