import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'web/dist/index.html');
const sources = [
  path.join(root, 'web/src'),
  path.join(root, 'web/index.html'),
  path.join(root, 'web/vite.config.ts'),
  path.join(root, 'web/vite-precompress.ts'),
];

function newest(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

/** Builds web/dist when it is missing or older than the client's sources. */
export function buildClientIfNeeded(): void {
  const built = fs.existsSync(dist) ? fs.statSync(dist).mtimeMs : 0;
  if (built >= Math.max(...sources.map(newest))) return;
  console.log('Building the client (web/dist)...');
  const vite = path.join(root, 'node_modules/.bin/vite');
  // Always a production build: under NODE_ENV=test (the browser tests' server) Vite would bundle
  // React's development build, twice the size and slower.
  const res = spawnSync(vite, ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (res.status !== 0) throw new Error('client build failed');
}

if (import.meta.url === `file://${process.argv[1]}`) buildClientIfNeeded();
