import { execFileSync } from 'node:child_process';
import { defineConfig, devices } from '@playwright/test';

// The server's port: E2E_PORT when given, else one the system has free now, so a server left on
// a fixed port (another run, a forgotten `npm start`) cannot stop the run before its first test.
// Chosen once by the main process; the workers, which load this file again, inherit it.
process.env.E2E_RESULTS_DIR ??= process.env.E2E_PORT ? `tmp/e2e-results-${process.env.E2E_PORT}` : 'tmp/e2e-results';
process.env.E2E_PORT ??= execFileSync(
  process.execPath,
  [
    '-e',
    "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); });",
  ],
  { encoding: 'utf8' },
);
const PORT = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${PORT}`;

// A fresh data folder per run, so every run starts from an empty ledger.
// Worker processes load this file again; only the main process starts the server.
const runStamp = new Date().toISOString().replace(/[:.]/g, '-');
// Set once by the main process; the workers inherit it, so tests can read the server's data folder.
process.env.E2E_DATA_DIR ??= `tmp/e2e-data-${runStamp}`;

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.e2e.ts',
  // One folder per port given, so runs side by side do not clear each other's artifacts.
  outputDir: process.env.E2E_RESULTS_DIR,
  // Two files at a time; the tests of one file run in order. Every test makes its own users;
  // the demo staff get their own passwords once, before any test, in global-setup.ts.
  fullyParallel: false,
  workers: 2,
  globalSetup: './tests/e2e/global-setup.ts',
  // On CI a failed test runs once more in a fresh worker: one that then passes is listed as
  // flaky in the summary (a defect to fix), without holding back the rest of the change.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: 'list',
  // A whole flow (sign-up, sign-in, several screens) took up to 30 s on a loaded two-core
  // machine; the limit is for a hung test, not a slow one.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    // The access screens' particle background redraws every frame under a blurred glass card;
    // in a software-rendered headless browser that costs a core per open page and slowed every
    // test beside it. With reduced motion the app draws one still frame (particle-background.tsx).
    reducedMotion: 'reduce',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'node --import tsx scripts/start.ts && exec node build/server/main.js',
    url: `${baseURL}/healthz`,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      // Every test signs up from 127.0.0.1; the limits themselves are covered by the API tests.
      RATE_LIMIT_FACTOR: '20',
      // The browser and the tests' API calls reach the server from its loopback, as a proxy would:
      // requests that send no X-Forwarded-For are 127.0.0.1 as before, and a test that makes its
      // client suspicious (a wrong password) sends an address of its own (actFromOwnAddress in
      // tests/e2e/helpers.ts), so the others never meet a captcha they did not ask for.
      TRUST_PROXY: '127.0.0.1',
      // The screens' staff amounts stay below the two-person limit; approvals.e2e.ts goes above it.
      FOUR_EYES_LIMIT_USD: '10000000',
      // The browser tests run on a fresh embedded database even when DATABASE_URL is set.
      DATABASE_URL: '',
      // And on each process's own limits, not the Redis that CI exports for the scale-out suite.
      REDIS_URL: '',
    },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
