import { defineConfig } from 'vitest/config';

// The failover drill (npm run test:failover): a PostgreSQL primary and synchronous standby under
// Patroni behind HAProxy (scripts/ha/cluster.sh), the app as its own process, one file, alone.
export default defineConfig({
  test: {
    include: ['tests/failover/**/*.drill.spec.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});
