import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from '../server/db/data-dir-lock.js';

/**
 * Backup and restore of the embedded database (PGlite): the whole data directory as one
 * gzipped tarball, taken while the directory is locked, so no writer is half-way through.
 * PostgreSQL deployments use pg_dump / their provider's snapshots instead.
 */

export const BACKUP_HELP = `Usage: npm run ledger -- backup [--out FILE] [--json]

Writes the embedded database (DATA_DIR/pgdata) to one gzipped tarball, by default
DATA_DIR/backups/ledger-<time>.tar.gz. Stop the app first: the data directory is locked
while the copy is taken. With DATABASE_URL set, use pg_dump instead.`;

export const RESTORE_HELP = `Usage: npm run ledger -- restore --from FILE [--force] [--json]

Restores the embedded database from a backup tarball into DATA_DIR/pgdata. An existing
database is kept aside as pgdata.before-restore-<time> (only with --force). Stop the app
first. Run \`npm run ledger -- verify\` afterwards.`;

export class BackupUsageError extends Error {
  override name = 'UsageError';
}

export interface BackupResult {
  file: string;
  bytes: number;
  sha256: string;
  events: number;
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');

async function countEvents(pg: PGlite): Promise<number> {
  const exists = await pg.query<{ n: number }>(`select count(*)::int as n from information_schema.tables where table_name = 'events'`);
  if (!exists.rows[0]?.n) return 0;
  return (await pg.query<{ n: number }>('select count(*)::int as n from events')).rows[0]!.n;
}

/**
 * Makes the folder that will hold `file`, one level at a time (a recursive mkdirSync never
 * returns for a path under /proc), and checks it can be written, before the database is
 * opened: a bad --out is a one-line refusal, not a stack after the copy was taken.
 */
function prepareOutFolder(file: string): void {
  const folder = path.dirname(file);
  const missing: string[] = [];
  let at = folder;
  while (!fs.existsSync(at) && path.dirname(at) !== at) {
    missing.unshift(at);
    at = path.dirname(at);
  }
  try {
    if (!fs.statSync(at).isDirectory()) throw new Error(`${at} is not a folder`);
    for (const dir of missing) fs.mkdirSync(dir);
    fs.accessSync(folder, fs.constants.W_OK);
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new Error(`${file} is a folder`);
  } catch (err) {
    throw new BackupUsageError(`Cannot write the backup to ${file}: ${(err as Error).message}`);
  }
}

export async function backupDataDir(dataDir: string, out?: string): Promise<BackupResult> {
  const pgdata = path.join(dataDir, 'pgdata');
  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) throw new BackupUsageError(`There is no embedded database in ${path.resolve(dataDir)} to back up.`);
  const file = path.resolve(out ?? path.join(dataDir, 'backups', `ledger-${stamp()}.tar.gz`));
  prepareOutFolder(file);
  const unlock = lockDataDir(dataDir);
  try {
    const pg = new PGlite({ dataDir: pgdata });
    try {
      await pg.waitReady;
      // A checkpoint first, so the copy holds everything committed, not only the write-ahead log.
      await pg.exec('checkpoint');
      const events = await countEvents(pg);
      const dump = await pg.dumpDataDir('gzip');
      const bytes = Buffer.from(await dump.arrayBuffer());
      fs.writeFileSync(`${file}.partial`, bytes, { mode: 0o600 });
      fs.renameSync(`${file}.partial`, file);
      return { file, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), events };
    } finally {
      await pg.close();
    }
  } finally {
    unlock();
  }
}

export interface RestoreResult {
  from: string;
  events: number;
  keptAside: string | null;
}

export async function restoreDataDir(dataDir: string, from: string, opts: { force?: boolean } = {}): Promise<RestoreResult> {
  if (!fs.existsSync(from)) throw new BackupUsageError(`No backup file at ${path.resolve(from)}.`);
  const unlock = lockDataDir(dataDir);
  try {
    const pgdata = path.join(dataDir, 'pgdata');
    let keptAside: string | null = null;
    if (fs.existsSync(pgdata) && fs.readdirSync(pgdata).length > 0) {
      if (!opts.force) throw new BackupUsageError(`${path.resolve(pgdata)} already holds a database. Pass --force to keep it aside and restore over it.`);
      keptAside = `${pgdata}.before-restore-${stamp()}`;
      fs.renameSync(pgdata, keptAside);
    }
    const bytes = fs.readFileSync(from);
    try {
      const pg = new PGlite({ dataDir: pgdata, loadDataDir: new Blob([bytes]) });
      try {
        await pg.waitReady;
        return { from: path.resolve(from), events: await countEvents(pg), keptAside };
      } finally {
        await pg.close();
      }
    } catch (err) {
      // A broken tarball: put the previous database back as it was.
      fs.rmSync(pgdata, { recursive: true, force: true });
      if (keptAside) fs.renameSync(keptAside, pgdata);
      throw new BackupUsageError(`${path.resolve(from)} is not a usable backup: ${(err as Error).message}`);
    }
  } finally {
    unlock();
  }
}
