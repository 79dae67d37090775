#!/usr/bin/env bash
# npm test: type-check and lint, the unit and integration suites on PGlite, again on PostgreSQL
# when DATABASE_URL is set, a third time through PgBouncer (transaction pooling) when
# PGBOUNCER_DATABASE_URL is set, then the browser tests in Chromium.
#
# On two cores only the type-check and the lint run beside another stage (the client build and
# the PGlite suite); every other stage runs alone with both cores. A stage run in the
# background prints its output when it ends.
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
# both ran above and would run the same again.
server_pass() {
  npx vitest run --exclude '**/*.unit.spec.ts' --exclude 'server/db/database.int.spec.ts' "$@"
}

# The remaining stages run one after the other, each with both cores. Run side by side (the
# PostgreSQL and PgBouncer passes beside the browser tests, on one worker each) they took 31
# minutes in all; alone, 2.0 min (PostgreSQL), 2.2 min (PgBouncer) and 4.7 min (browser).
if [ -n "${DATABASE_URL:-}" ]; then
  echo "== unit and integration tests on PostgreSQL (${DATABASE_URL%%@*}@...)"
  # On PostgreSQL directly the statements are prepared (DB_PREPARED_STATEMENTS, as a direct
  # deployment runs); through PgBouncer 1.18 below they cannot be, and are not.
  DB_PREPARED_STATEMENTS=true server_pass || failed+=("tests on PostgreSQL")
fi
if [ -n "${PGBOUNCER_DATABASE_URL:-}" ]; then
  echo "== integration tests through PgBouncer, transaction pooling (${PGBOUNCER_DATABASE_URL%%@*}@...)"
  DATABASE_URL="$PGBOUNCER_DATABASE_URL" DB_PREPARED_STATEMENTS=false TEST_DB_POOLER=pgbouncer server_pass || failed+=("tests through PgBouncer")
fi

echo "== browser tests (Playwright, Chromium)"
npx playwright test || failed+=("browser tests")

if [ "${#failed[@]}" -ne 0 ]; then
  echo "!! failed: ${failed[*]}" >&2
  exit 1
fi
