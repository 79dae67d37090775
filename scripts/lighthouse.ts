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
 * `npm run lighthouse -- [URL] [--runs N] [--min SCORE]`: mobile Lighthouse (its default throttling)
 * on the sign-in screen and on the signed-in overview, N times each (3 unless told), printing the
 * median of performance, accessibility, CLS, LCP, FCP, TBT and Speed Index; a median performance
 * under SCORE exits 1.
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
async function startApp(): Promise<{ base: string; email: string; password: string; app: ChildProcess; dataDir: string }> {
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
  return { base, email: email!, password: password!, app, dataDir };
}

type Figures = { performance: number; accessibility: number; cls: number; lcp: number; fcp: number; tbt: number; si: number };
type Page = { name: string; path: string; runs: Figures[] };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `[URL] [--runs N] [--min SCORE]`: runs default to 3; a median performance under SCORE exits 1. */
function parseArgs(argv: string[]): { url: string | undefined; runs: number; min: number | null } {
  let url: string | undefined;
  let runs = 3;
  let min: number | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 0 || n > 100) throw new Error(`${arg} wants a whole number from 0 to 100`);
      return n;
    };
    if (arg === '--runs') runs = Math.max(1, value());
    else if (arg === '--min') min = value();
    else if (!arg.startsWith('--')) url = arg;
    else throw new Error(`unknown option ${arg}: npm run lighthouse -- [URL] [--runs N] [--min SCORE]`);
  }
  return { url, runs, min };
}

const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const { url: given, runs, min } = parseArgs(process.argv.slice(2));
  const started = given ? null : await startApp();
  const base = given?.replace(/\/$/, '') ?? started!.base;
  const email = started?.email ?? process.env.LIGHTHOUSE_EMAIL;
  const password = started?.password ?? process.env.LIGHTHOUSE_PASSWORD;
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  const pages: Page[] = [{ name: 'sign-in (/login)', path: '/login', runs: [] }];
  if (email && password) pages.push({ name: 'overview (/dashboard/overview), signed in', path: '/dashboard/overview', runs: [] });
  else console.log('overview: not measured (no LIGHTHOUSE_EMAIL / LIGHTHOUSE_PASSWORD given)');
  const reportDir = path.join(root, 'tmp');
  fs.mkdirSync(reportDir, { recursive: true });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    const audit = async (target: Page): Promise<Figures> => {
      const result = await lighthouse(
        `${base}${target.path}`,
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
      // A page that sent the browser elsewhere (the overview signed out to /login) was not measured.
      const landed = new URL(lhr.finalDisplayedUrl).pathname;
      if (landed !== target.path) throw new Error(`${target.name}: Lighthouse measured ${landed}, not ${target.path}`);
      fs.writeFileSync(path.join(reportDir, `lighthouse${target.path.replaceAll('/', '-')}.json`), result!.report as string);
      if (process.env.LIGHTHOUSE_TRACE)
        fs.writeFileSync(path.join(reportDir, `trace${target.path.replaceAll('/', '-')}.json`), JSON.stringify(result!.artifacts.Trace));
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      return {
        performance: score('performance'),
        accessibility: score('accessibility'),
        cls: numeric('cumulative-layout-shift'),
        lcp: numeric('largest-contentful-paint'),
        fcp: numeric('first-contentful-paint'),
        tbt: numeric('total-blocking-time'),
        si: numeric('speed-index'),
      };
    };
    let session: string | null = null;
    if (pages.length > 1) {
      const answer = await fetch(`${base}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      if (!answer.ok) throw new Error(`sign-in as ${email}: ${answer.status} ${await answer.text()}`);
      session = await answer.text();
    }
    for (let run = 1; run <= runs; run++) {
      for (const target of pages) {
        // The app keeps its session in the site's local storage: none for the sign-in screen (it
        // would send a signed-in visitor on to the overview), the demo customer's for the overview.
        await page.goto(`${base}/healthz`);
        await page.evaluate(
          (value) =>
            value ? window.localStorage.setItem('wallet-ledger.session', value) : window.localStorage.removeItem('wallet-ledger.session'),
          target.path === '/login' ? null : session,
        );
        target.runs.push(await audit(target));
        process.stderr.write(`run ${run}/${runs}: ${target.path} ${target.runs.at(-1)!.performance}\n`);
      }
    }
    await browser.disconnect();
  } finally {
    chrome.kill();
    if (started) {
      started.app.kill();
      await new Promise((resolve) => started.app.once('exit', resolve));
      fs.rmSync(started.dataDir, { recursive: true, force: true });
    }
  }
  console.log(row(['page (mobile, default throttling)', 'performance', 'accessibility', 'CLS', 'LCP', 'FCP', 'TBT', 'Speed Index']));
  console.log(row(Array(8).fill('---')));
  let below = false;
  for (const target of pages) {
    const of = (key: keyof Figures) => median(target.runs.map((r) => r[key]));
    console.log(
      row([
        `${target.name}, median of ${target.runs.length}`,
        `**${of('performance')}** (${target.runs.map((r) => r.performance).join(', ')})`,
        of('accessibility'),
        of('cls').toFixed(3),
        seconds(of('lcp')),
        seconds(of('fcp')),
        `${Math.round(of('tbt'))} ms`,
        seconds(of('si')),
      ]),
    );
    if (min !== null && of('performance') < min) below = true;
  }
  console.log(`Reports of the last run: tmp/lighthouse-login.json, tmp/lighthouse-dashboard-overview.json`);
  if (below) {
    console.error(`A median performance score is under --min ${min}.`);
    process.exitCode = 1;
  }
}

await main();
