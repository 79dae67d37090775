import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { buildClientIfNeeded } from './build-client.js';
import { buildServer } from './build-server.js';

/*
 * `npm run lighthouse [URL]`: mobile Lighthouse (its default throttling) on the sign-in screen and
 * on the signed-in overview, printing performance, accessibility and CLS.
 * Without a URL it builds and starts the app on a free port with a fresh embedded database and
 * signs in as its demo customer; with one it signs in as LIGHTHOUSE_EMAIL / LIGHTHOUSE_PASSWORD.
 * Chromium: CHROME_PATH, else /usr/bin/chromium.
 */

const root = path.resolve(import.meta.dirname, '..');
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the app at ${base} did not answer /healthz`);
}

/** Builds and starts the app; returns its address, the demo customer and the process. */
async function startApp(): Promise<{ base: string; email: string; password: string; app: ChildProcess }> {
  buildClientIfNeeded();
  await buildServer('server/main.ts');
  const port = await freePort();
  const dataDir = path.join(root, 'tmp', `lighthouse-${Date.now()}`);
  const app = spawn(process.execPath, ['build/server/main.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base);
  const demo = fs.readFileSync(path.join(dataDir, 'demo-users.txt'), 'utf8');
  const [, email, password] = /USER\s+(\S+)\s+password: (\S+)/.exec(demo)!;
  return { base, email: email!, password: password!, app };
}

async function main(): Promise<void> {
  const given = process.argv[2];
  const started = given ? null : await startApp();
  const base = given?.replace(/\/$/, '') ?? started!.base;
  const email = started?.email ?? process.env.LIGHTHOUSE_EMAIL;
  const password = started?.password ?? process.env.LIGHTHOUSE_PASSWORD;
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  const rows: string[] = [];
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    const audit = async (name: string, url: string) => {
      const result = await lighthouse(
        url,
        {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          disableStorageReset: true,
        },
        undefined,
        page,
      );
      const lhr = result!.lhr;
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const cls = lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN;
      const lcp = (lhr.audits['largest-contentful-paint']?.numericValue ?? NaN) / 1000;
      rows.push(`| ${name} | ${score('performance')} | ${score('accessibility')} | ${cls.toFixed(3)} | ${lcp.toFixed(1)} s |`);
    };
    await audit('sign-in (/login)', `${base}/login`);
    if (email && password) {
      const answer = await fetch(`${base}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      if (!answer.ok) throw new Error(`sign-in as ${email}: ${answer.status} ${await answer.text()}`);
      const session = await answer.text();
      // The app keeps its session in the site's local storage.
      await page.goto(`${base}/healthz`);
      await page.evaluate((value) => window.localStorage.setItem('wallet-ledger.session', value), session);
      await audit('overview (/dashboard/overview), signed in', `${base}/dashboard/overview`);
    } else {
      rows.push('| overview | (no LIGHTHOUSE_EMAIL / LIGHTHOUSE_PASSWORD given) | | | |');
    }
    await browser.disconnect();
  } finally {
    chrome.kill();
    started?.app.kill();
  }
  console.log('| page (mobile, default throttling) | performance | accessibility | CLS | LCP |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}

await main();
