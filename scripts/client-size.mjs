// The JavaScript a browser loads for the first screen, gzipped (issue target: under 250 KB).
// Usage: with the app running on the built client (`npm start`):
//   node scripts/client-size.mjs [http://127.0.0.1:3000]
// Opens the address in Chromium (/usr/bin/chromium), collects every .js it fetched until the
// network is idle, and sizes those files from web/dist, raw and gzipped at level 9.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { chromium } from '@playwright/test';

const base = (process.argv[2] ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
try {
  const page = await browser.newPage();
  const scripts = new Set();
  page.on('response', (r) => {
    const { pathname } = new URL(r.url());
    if (pathname.endsWith('.js')) scripts.add(pathname);
  });
  await page.goto(`${base}/`, { waitUntil: 'networkidle' });
  let raw = 0;
  let gzipped = 0;
  for (const p of [...scripts].sort()) {
    const bytes = fs.readFileSync(`web/dist${p}`);
    const g = zlib.gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gzipped += g;
    console.log(`${p.padEnd(40)} ${String(bytes.length).padStart(8)} ${String(g).padStart(8)}`);
  }
  console.log(
    `${'total'.padEnd(40)} ${String(raw).padStart(8)} ${String(gzipped).padStart(8)}  (${(gzipped / 1000).toFixed(1)} kB gzipped, first screen ${new URL(page.url()).pathname})`,
  );
} finally {
  await browser.close();
}
