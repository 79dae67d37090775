import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');

/** The folders of the server's code (and the benchmark's, in scripts/), built file by file into build/. */
const SOURCE_DIRS = ['server', 'ledger', 'projections', 'migrations', 'scripts'];

/** Every TypeScript source of `dir` that the running server may import: not the tests, not declarations. */
function sources(dir: string): string[] {
  return (fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !/\.(spec|d)\.ts$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The `.js` files under `dir` (absolute), as they are on disk now. */
function builtFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * The server as JavaScript for plain `node`: `npm start`, the browser tests and the benchmark
 * run it, so that production pays neither a TypeScript loader's thread nor its memory (about
 * 55 MB of RSS). Each source file becomes one `.js` file under build/ in the same folders
 * (server/app.ts as build/server/app.js), so that the `.js` specifiers resolve as they are
 * and @fastify/autoload finds the plugin and route folders on disk. Packages stay in
 * node_modules. Not minified and names kept, so that stack traces read without source maps.
 *
 * Each file is written to a temporary name and renamed, so that two starts at once never run a
 * half-written file; files of sources that no longer exist are removed (autoload would load a
 * stale route). Answers the path of `entry`'s built file.
 */
export async function buildServer(entry: string): Promise<string> {
  const outdir = path.join(root, 'build');
  const result = await build({
    absWorkingDir: root,
    entryPoints: SOURCE_DIRS.flatMap(sources),
    outbase: root,
    outdir,
    bundle: false,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    keepNames: true,
    write: false,
    logLevel: 'warning',
  });
  const written = new Set<string>();
  for (const file of result.outputFiles) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    const tmp = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, file.contents);
    fs.renameSync(tmp, file.path);
    written.add(file.path);
  }
  for (const dir of SOURCE_DIRS)
    for (const file of builtFiles(path.join(outdir, dir))) if (!written.has(file)) fs.rmSync(file, { force: true });
  const out = path.join(outdir, entry.replace(/\.ts$/, '.js'));
  if (!written.has(out)) throw new Error(`${entry}: not among the server's sources (${SOURCE_DIRS.join(', ')})`);
  return out;
}

// `npm run build:server` (the image's build stage): the server alone.
if (import.meta.url === `file://${process.argv[1]}`)
  console.log(`built ${path.relative(root, await buildServer('server/main.ts'))} and the files it imports`);
