#!/usr/bin/env bash
# npm test: type-check, the unit and integration suites on PGlite, again on PostgreSQL
# when DATABASE_URL is set, then the browser tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== type-check"
npx tsc --noEmit -p .

echo "== client build"
npx vite build --config web/vite.config.ts --logLevel warn

echo "== unit and integration tests on PGlite (embedded)"
env -u DATABASE_URL npx vitest run

if [ -n "${DATABASE_URL:-}" ]; then
  echo "== unit and integration tests on PostgreSQL (${DATABASE_URL%%@*}@...)"
  npx vitest run
fi

echo "== browser tests (Playwright, Chromium)"
npx playwright test
