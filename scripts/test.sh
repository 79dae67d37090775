#!/usr/bin/env bash
# npm test: type-check and lint, the unit and integration suites on PGlite, again on PostgreSQL
# when DATABASE_URL is set, a third time through PgBouncer (transaction pooling) when
# PGBOUNCER_DATABASE_URL is set, then the browser tests in Chromium.
#
# On two cores the stages overlap where they leave a core idle: the type-check runs beside
# the PGlite suite, and the PostgreSQL suite (which waits on the server more than it computes)
# beside the browser tests (which wait on pages). The PGlite suite, which keeps both cores
# busy, runs alone. A stage run in the background prints its output when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."

logs="$(mktemp -d)"
# A stage still running when this script stops (a failure, Ctrl-C) is stopped with it.
trap 'jobs -p | xargs -r kill 2>/dev/null; rm -rf "$logs"' EXIT
failed=()

# Waits for a background stage, prints its output under its title, and notes a failure.
finish() {
  local name=$1 pid=$2 title=$3 rc=0
  wait "$pid" || rc=$?
  echo "== $title"
  cat "$logs/$name.log"
  if [ "$rc" -ne 0 ]; then
    echo "!! $title failed (exit $rc)" >&2
    failed+=("$title")
  fi
}

# The type-check and the lint (ESLint with the import boundaries, then Prettier's check) run
# beside the client build and the PGlite suite; each prints its output when it ends.
npx tsc --noEmit -p . >"$logs/tsc.log" 2>&1 &
tsc_pid=$!
npm run --silent lint >"$logs/lint.log" 2>&1 &
lint_pid=$!

echo "== client build"
npx vite build --config web/vite.config.ts --logLevel warn

echo "== unit and integration tests on PGlite (embedded)"
pglite_rc=0
env -u DATABASE_URL npx vitest run || pglite_rc=$?

[ "$pglite_rc" -eq 0 ] || failed+=("tests on PGlite")
finish tsc "$tsc_pid" "type-check"
finish lint "$lint_pid" "lint (npm run lint)"
if [ "${#failed[@]}" -ne 0 ]; then
  echo "!! failed: ${failed[*]}; the PostgreSQL and browser tests were not run" >&2
  exit 1
fi

# The unit specs touch no database, and database.int.spec.ts is about PGlite's data folder:
# both ran above and would run the same again. One worker: the browser tests beside it
# need the cores more.
server_pass() {
  npx vitest run --maxWorkers 1 --exclude '**/*.unit.spec.ts' --exclude 'server/db/database.int.spec.ts' "$@"
}

pg_pid=""
if [ -n "${DATABASE_URL:-}" ]; then
  # On PostgreSQL directly the statements are prepared (DB_PREPARED_STATEMENTS, as a direct
  # deployment runs); through PgBouncer 1.18 below they cannot be, and are not.
  DB_PREPARED_STATEMENTS=true server_pass >"$logs/pg.log" 2>&1 &
  pg_pid=$!
fi
# The same suites through PgBouncer in transaction mode, after the PostgreSQL pass and beside
# the browser tests too (one pass after the other keeps the connections to PostgreSQL as they
# were). Alone, this pass took 284 s on the shared two-core machine at a load of 8, 939 s at 20.
bouncer_pid=""
if [ -n "${PGBOUNCER_DATABASE_URL:-}" ]; then
  ( [ -z "$pg_pid" ] || while kill -0 "$pg_pid" 2>/dev/null; do sleep 1; done
    DATABASE_URL="$PGBOUNCER_DATABASE_URL" DB_PREPARED_STATEMENTS=false server_pass ) >"$logs/bouncer.log" 2>&1 &
  bouncer_pid=$!
fi

echo "== browser tests (Playwright, Chromium)"
pw_rc=0
npx playwright test 2>&1 | tee "$logs/playwright.log" || pw_rc=$?
[ "$pw_rc" -eq 0 ] || failed+=("browser tests")

if [ -n "$pg_pid" ]; then
  finish pg "$pg_pid" "unit and integration tests on PostgreSQL (${DATABASE_URL%%@*}@...), run beside the browser tests"
fi
if [ -n "$bouncer_pid" ]; then
  finish bouncer "$bouncer_pid" "integration tests through PgBouncer, transaction pooling (${PGBOUNCER_DATABASE_URL%%@*}@...), run beside the browser tests"
fi

if [ "$pw_rc" -ne 0 ]; then
  # The PostgreSQL outputs came after the browser tests': their summary again, so that the end
  # of the log names what failed.
  echo "== browser tests, the end of their output again"
  tail -n 40 "$logs/playwright.log"
fi

if [ "${#failed[@]}" -ne 0 ]; then
  echo "!! failed: ${failed[*]}" >&2
  exit 1
fi
