import { defineConfig } from 'vitest/config';

// The long suites (npm run test:long): the server killed and restarted, backups restored.
export default defineConfig({
  test: {
    include: ['tests/long/**/*.long.spec.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
    // As in vitest.config.ts: @fastify/autoload's imports go through Vitest.
    server: { deps: { inline: ['@fastify/autoload'] } },
  },
});
