#!/usr/bin/env bash
# `npm test`: lint, type-check, unit tests, the HTTP suite against a real `next start` on the
# embedded database and on a real PostgreSQL started here, a short chaos run and the browser
# tests. Suites run two at a time, each in its own log, printed when it ends.
# Prints each step's time at the end, and how busy the CPU was meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."
# Nothing the tests run sends traffic off the machine: Next.js's usage reports included.
export NEXT_TELEMETRY_DISABLED=1

# On a fresh machine npm test is the whole set-up: what npm does not install, it installs (or
# says how to), before any suite starts.
source scripts/system-packages.sh
system_packages

LOGS=test-results/logs
rm -rf "$LOGS"
mkdir -p "$LOGS"
timings=()
failed=()

# The machine's CPU ticks, busy and in all, from /proc/stat. Each step's line says how busy the
# whole machine was while it ran: under 100 %, the suites waited on something else than the CPU.
cpu_ticks() { awk '/^cpu /{b=$2+$3+$4+$7+$8; print b, b+$5+$6; exit}' /proc/stat; }
busy_since() {
  local b1 t1
  read -r b1 t1 < <(cpu_ticks)
  echo $(((b1 - $1) * 100 / (t1 - $2 > 0 ? t1 - $2 : 1)))
}
# The CPU a step used, in seconds (user + system, its processes and theirs): bash's `time`, run
# by `timed CPU_FILE COMMAND...`, writes it to CPU_FILE. The suites are bound by the two cores,
# so this, not the wall time, is what a change to a step saves. It counts what was waited for:
# a browser's renderers, ended with the browser rather than by it, are left out.
TIMED='TIMEFORMAT="%3U %3S"; { time "$@" 2>&3; } 3>&2 2>"$0"'
timed() { bash -c "$TIMED" "$@"; }
cpu_seconds() { awk '{printf "%d", $1 + $2}' "$1" 2>/dev/null || echo "?"; }
# timing SECONDS BUSY_TICKS CPU_FILE NAME [SUFFIX]: one line of the table printed at the end.
timing() {
  timings+=("$(printf '%6ds %4d%% busy %6s CPU-s  %s%s' "$1" "$(busy_since $2)" \
    "$(cpu_seconds "$3")" "$4" "${5:-}")")
}

# Steps beside each other, at most SLOTS at once: `start NAME COMMAND...` queues one (waiting for
# a free slot), `wait_for NAME` waits until that one has ended, `wait_all` until all have. Each
# writes to its own log, printed when it ends; a failure is reported at the end, after the rest.
# `start_light` starts a step that mostly waits at once, beside the others, taking no slot.
SLOTS=${TEST_SLOTS:-2}
light=()
pids=()
names=()
starts=()
ticks=()
logs=()
finished=()
running() {
  local n=0 i
  for i in "${!pids[@]}"; do [ "${pids[$i]}" != 0 ] && [ "${light[$i]}" = 0 ] && n=$((n + 1)); done
  echo "$n"
}
any_running() {
  local pid
  for pid in "${pids[@]:-}"; do [ "${pid:-0}" != 0 ] && return 0; done
  return 1
}
# Waits for whichever running step ends first and reports it.
reap_one() {
  local done_pid status=0 i took live=()
  for i in "${!pids[@]}"; do [ "${pids[$i]}" != 0 ] && live+=("${pids[$i]}"); done
  wait -n -p done_pid "${live[@]}" || status=$?
  for i in "${!pids[@]}"; do [ "${pids[$i]}" = "$done_pid" ] && break; done
  took=$(($(date +%s) - starts[i]))
  printf '\n\033[1m== %s — %s in %ds\033[0m\n' "${names[$i]}" \
    "$([ "$status" = 0 ] && echo passed || echo FAILED)" "$took"
  cat "${logs[$i]}"
  if [ "$status" = 0 ]; then
    timing "$took" "${ticks[$i]}" "${logs[$i]}.cpu" "${names[$i]}"
  else
    timing "$took" "${ticks[$i]}" "${logs[$i]}.cpu" "${names[$i]}" " (failed)"
    failed+=("${names[$i]}")
  fi
  finished+=("${names[$i]}")
  pids[i]=0
}
start() {
  local name=$1
  shift
  while [ "$(running)" -ge "$SLOTS" ]; do reap_one; done
  launch "$name" 0 "$@"
}
start_light() {
  local name=$1
  shift
  launch "$name" 1 "$@"
}
launch() {
  local name=$1 is_light=$2 log
  shift 2
  printf '\033[1m== %s\033[0m (started; its output follows when it ends)\n' "$name"
  log="$LOGS/$(echo "$name" | tr -c 'A-Za-z0-9\n' '-' | tr -s '-').log"
  # A process group of its own, so a failure elsewhere can end it with all it started.
  setsid bash -c "$TIMED" "$log.cpu" "$@" >"$log" 2>&1 &
  pids+=($!)
  light+=("$is_light")
  logs+=("$log")
  names+=("$name")
  starts+=("$(date +%s)")
  ticks+=("$(cpu_ticks)")
}
ended() { printf '%s\n' "${finished[@]:-}" | grep -qxF "$1"; }
wait_for() {
  until ended "$1"; do reap_one; done
  if printf '%s\n' "${failed[@]:-}" | grep -qxF "$1"; then exit 1; fi
}
wait_all() {
  while any_running; do reap_one; done
  if [ ${#failed[@]} -gt 0 ]; then
    printf '\n\033[1mFailed: %s\033[0m\n' "${failed[*]}"
    exit 1
  fi
}

suite_started=$(date +%s)
suite_ticks=$(cpu_ticks)
report() {
  local status=$?
  # A failed or interrupted run leaves steps running: end them (only ours, by PID).
  for pid in "${pids[@]:-}"; do [ "${pid:-0}" != 0 ] && kill -- "-$pid" 2>/dev/null; done
  # The test PostgreSQL's CPU is no step's own: its server and the connections that have ended.
  local pg_cpu=?
  pg_cpu=$(awk -v hz="$(getconf CLK_TCK)" '{sub(/.*\) /, ""); printf "%d", ($12 + $13 + $14 + $15) / hz}' \
    "/proc/$(head -n 1 "${PG_TEST_DIR:-/nonexistent}/data/postmaster.pid" 2>/dev/null)/stat" 2>/dev/null) || true
  pg_test_stop 2>/dev/null || true
  printf '\n\033[1m== step times\033[0m\n'
  printf '%s\n' "${timings[@]}"
  printf '%6s  %4s      %6s CPU-s  %s\n' "" "" "$pg_cpu" "the tests' PostgreSQL server, beside the steps"
  printf '%6ds %4d%% busy %6s CPU-s  total\n' $(($(date +%s) - suite_started)) \
    "$(busy_since $suite_ticks)" "$(cat "$LOGS"/*.cpu 2>/dev/null | awk '{s += $1 + $2} END {printf "%d", s}')"
  exit $status
}
trap report EXIT

# One throw-away PostgreSQL for the unit tests that run on both databases and the HTTP suites,
# and one migrated embedded database that every fresh one in the tests starts as a copy of.
source scripts/pg-test-server.sh

# Two steps at a time: the machine has two cores, and most steps keep about one busy (each line of
# the step table says how busy). The longest go first; the quick checks (half a minute in all)
# beside the build, rather than before it. The database template (made once per version of the
# migrations: a new machine's first run spends a core on it for a while) goes beside the build
# too: only the tests need it, and none starts before it is made.
start "database template" node --conditions=react-server --import tsx \
  tests/support/pglite-template-cli.ts
start "build" bash -c 'npx next build >"$0" 2>&1 || { cat "$0"; exit 1; }; tail -n 25 "$0"' \
  "$LOGS/build-output.log"
start "lint" npx biome check .
start "unused code" npx knip
start "type-check" npx tsc --noEmit
wait_for "database template"
# vitest gives the unit tests one worker on two cores; beside the build, two keep both busy.
start "unit tests" npx vitest run --project unit --project unit-workers --maxWorkers=2
# Everything after this runs against the build.
wait_for "build"
# The short chaos run mostly waits (on its kills, its outage, its runs' model delays): about a
# fifth of a core for a minute or two. At the end of the queue it was the run's last minute alone;
# beside the others it costs them little.
start_light "Reliability — short form of npm run test:chaos" \
  env CHAOS_EXECUTIONS="${CHAOS_EXECUTIONS:-40}" CHAOS_KILL_EVERY_MS="${CHAOS_KILL_EVERY_MS:-1500}" \
  npx vitest run --project chaos

# The browser tests come in two halves of about equal time (playwright.config.ts), each with its
# own servers and ports. Queued so that the halves never run side by side, each beside an HTTP
# suite instead: in two clean-clone runs they took 381 s and 455 s beside HTTP suites, 447 s and
# 523 s beside each other (each is a browser's processes and a server).
start "HTTP tests — embedded database" env TEST_DB=embedded npx vitest run --project http
start "Browser tests 1/2 — Playwright in Debian's Chromium" \
  env E2E_PART=1 E2E_PORT=3217 E2E_OUTPUT_DIR=test-results/e2e/part-1 npx playwright test
start "HTTP tests — PostgreSQL" env TEST_DB=postgres npx vitest run --project http
start "Browser tests 2/2 — Playwright in Debian's Chromium" \
  env E2E_PART=2 E2E_PORT=3227 E2E_FAKE_LINEAR_PORT=3229 E2E_OUTPUT_DIR=test-results/e2e/part-2 \
  npx playwright test
wait_all
