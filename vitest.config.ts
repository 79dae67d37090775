import { defineConfig } from 'vitest/config';

// Kept apart from web/vite.config.ts (whose root is web/), and clear of Playwright's specs.
export default defineConfig({
  test: {
    include: ['ledger/**/*.spec.ts', 'projections/**/*.spec.ts', 'server/**/*.spec.ts', 'scripts/**/*.spec.ts', 'tests/**/*.spec.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**', 'tests/long/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
