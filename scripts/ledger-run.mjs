// `npm run ledger`: the operator CLI from its compiled JavaScript (build/scripts/ledger.js), as
// `npm start` runs the server, so that a command costs a plain `node` start and no TypeScript
// loader. The JavaScript is rebuilt first (scripts/build-server.ts, under a second or two) only
// when a source under server/, ledger/, projections/, migrations/ or scripts/ is newer than it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'build', 'scripts', 'ledger.js');
const SOURCE_DIRS = ['server', 'ledger', 'projections', 'migrations', 'scripts'];

/** The newest modification time of the sources the build reads (tests and declarations aside). */
function newestSource() {
  let newest = 0;
  for (const dir of SOURCE_DIRS) {
    for (const entry of fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || /\.(spec|d)\.ts$/.test(entry.name)) continue;
      newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
if (builtAt < newestSource()) {
  try {
    // The build's own line goes nowhere: stdout is the command's (--json, --csv).
    execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'build-server.ts')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch (err) {
    // An image without the build tools (or a read-only build/) runs the JavaScript it was built with.
    if (!builtAt) throw err;
    process.stderr.write(`ledger: could not rebuild build/ (${err.message.split('\n')[0]}); running the JavaScript built before.\n`);
  }
}
// The built CLI runs itself when it is the process's command (its RUN_AS_COMMAND check).
process.argv[1] = built;
await import(pathToFileURL(built).href);
