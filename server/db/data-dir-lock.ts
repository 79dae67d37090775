import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite does not stop two processes from opening one data directory, and two writers
 * corrupt it. A lock file holding our pid, taken atomically, makes the second one fail
 * with a message that says what to do. A lock left by a dead process is taken over.
 */
/** Lock files this process holds: a second open from within the same process is refused too. */
const heldHere = new Set<string>();

function lockedBy(dataDir: string, pid: number): DataDirLockedError {
  return new DataDirLockedError(
    `The data directory ${path.resolve(dataDir)} is in use by process ${pid}. ` +
      'Stop that process (the running app or another ledger command) first, or point DATA_DIR at another directory.',
  );
}

export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.resolve(dataDir, 'ledger.lock');
  if (heldHere.has(lockPath)) {
    throw lockedBy(dataDir, process.pid);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      heldHere.add(lockPath);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(lockPath);
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) throw lockedBy(dataDir, holder);
      fs.rmSync(lockPath, { force: true }); // stale: its process is gone
    }
  }
  throw new DataDirLockedError(`Could not take the lock on ${path.resolve(dataDir)}.`);
}
