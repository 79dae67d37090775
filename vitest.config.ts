import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Kept apart from web/vite.config.ts (whose root is web/), and clear of Playwright's specs.
export default defineConfig({
  // The client's aliases (web/vite.config.ts), for the tests of its modules (tests/web-*.unit.spec.ts).
  resolve: {
    alias: [
      { find: /^@\//, replacement: fileURLToPath(new URL('./web/src/', import.meta.url)) },
      { find: /^@ledger\//, replacement: fileURLToPath(new URL('./ledger/', import.meta.url)) },
    ],
  },
  test: {
    include: ['ledger/**/*.spec.ts', 'projections/**/*.spec.ts', 'server/**/*.spec.ts', 'scripts/**/*.spec.ts', 'tests/**/*.spec.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**', 'tests/long/**', 'tests/failover/**'],
    pool: 'forks',
    maxWorkers: 2,
    // Test files run one after another in two long-lived processes rather than one fresh process
    // each: a fresh one spends seconds loading the server's modules and compiling PGlite's
    // WebAssembly again, which was most of the suite's time. Every file builds its own app and
    // database; one that changes process.env puts it back in afterAll.
    isolate: false,
    // @fastify/autoload imports the route and service files itself: inlined, its imports go
    // through Vitest (which reads TypeScript) and share the modules the tests load.
    server: { deps: { inline: ['@fastify/autoload'] } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
