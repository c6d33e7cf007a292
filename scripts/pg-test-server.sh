#!/usr/bin/env bash
# Starts a throw-away PostgreSQL on 127.0.0.1 for the tests: `source` it, then `pg_test_stop`.
# Sets TEST_PG_URL. initdb refuses to run as root, so as root the server runs as `postgres`.
set -euo pipefail

PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
  echo "PostgreSQL server binaries not found (Debian: apt-get install postgresql)" >&2
  return 1 2>/dev/null || exit 1
fi
PG_TEST_DIR=$(mktemp -d /tmp/crewdeck-pg-XXXXXX)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$PG_TEST_DIR"
PG_TEST_PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
as_pg "$PGBIN/initdb" -D "$PG_TEST_DIR/data" -U crewdeck --auth=trust -E UTF8 >"$PG_TEST_DIR/initdb.log"
as_pg "$PGBIN/pg_ctl" -D "$PG_TEST_DIR/data" -l "$PG_TEST_DIR/server.log" -w \
  -o "-p $PG_TEST_PORT -k $PG_TEST_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
export TEST_PG_URL="postgres://crewdeck@127.0.0.1:$PG_TEST_PORT/postgres"
export PG_TEST_DIR PG_TEST_PORT PGBIN
pg_test_stop() {
  as_pg "$PGBIN/pg_ctl" -D "$PG_TEST_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_TEST_DIR"
}
