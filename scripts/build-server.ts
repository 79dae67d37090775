import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');

/**
 * The server as one JavaScript file for plain `node`: `npm start` and the benchmark run it,
 * so that production pays neither a TypeScript loader's thread nor its memory (about 55 MB
 * of RSS). Packages stay in node_modules (imported, not copied). Not minified and names
 * kept, so that stack traces read without source maps.
 *
 * `out` must sit two folders below the root, as the sources do (server/plugins/client.ts
 * finds the client's files from its own location). Written to a temporary file and renamed,
 * so that two starts at once never run a half-written file.
 */
export async function buildServer(entry: string, out: string): Promise<string> {
  const outfile = path.join(root, out);
  if (path.relative(root, path.dirname(outfile)).split(path.sep).length !== 2)
    throw new Error(`${out}: must be two folders below the root`);
  const result = await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    keepNames: true,
    write: false,
    logLevel: 'warning',
  });
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  const tmp = `${outfile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, result.outputFiles[0]!.contents);
  fs.renameSync(tmp, outfile);
  return outfile;
}

// `npm run build:server` (the image's build stage): the server's bundle alone.
if (import.meta.url === `file://${process.argv[1]}`)
  console.log(`built ${path.relative(root, await buildServer('server/main.ts', 'build/server/main.mjs'))}`);
