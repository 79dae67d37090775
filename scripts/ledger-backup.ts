import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from '../server/db/data-dir-lock.js';
import {
  checkPassphrase,
  KeysError,
  MIN_PASSPHRASE,
  openKeys,
  readSecrets,
  sameKeys,
  sealKeys,
  secretsFile,
  writeSecrets,
  type SealedKeys,
} from './backup-keys.js';

/**
 * Backup and restore of the embedded database (PGlite) and its keys: one file holding a
 * header line and the whole data directory as a gzipped tarball, taken while the directory
 * is locked, so no writer is half-way through. The header carries DATA_DIR/secrets.json
 * sealed with BACKUP_PASSPHRASE (scripts/backup-keys.ts), or says the keys were left out.
 * PostgreSQL deployments use pg_dump (docs/operations.md, "Back up and restore").
 */

export const BACKUP_HELP = `Usage: BACKUP_PASSPHRASE=… npm run ledger -- backup [--out FILE] [--json]
       npm run ledger -- backup --without-keys [--out FILE] [--json]

Writes the embedded database (DATA_DIR/pgdata) and its keys (DATA_DIR/secrets.json,
encrypted with BACKUP_PASSPHRASE, at least ${MIN_PASSPHRASE} characters) to one file, by default
DATA_DIR/backups/ledger-<time>.backup. Without the keys a restored ledger cannot sign in a
customer who uses an authenticator: the command refuses to run without a passphrase unless
--without-keys says the keys are kept elsewhere. Stop the app first: the data directory is
locked while the copy is taken. With DATABASE_URL set, use pg_dump instead.`;

export const RESTORE_HELP = `Usage: BACKUP_PASSPHRASE=… npm run ledger -- restore --from FILE [--force] [--without-keys] [--json]

Restores the embedded database from a backup into DATA_DIR/pgdata, and its keys into
DATA_DIR/secrets.json (BACKUP_PASSPHRASE opens them; --without-keys restores the database
alone). An existing database or other keys are kept aside as pgdata.before-restore-<time>
and secrets.json.before-restore-<time> (only with --force). Stop the app first. Run
\`npm run ledger -- verify\` afterwards.`;

/** Where the keys of a backup stand. */
export type KeysState = 'included' | 'left out' | 'none in DATA_DIR';

export class BackupUsageError extends Error {
  override name = 'UsageError';
}

export interface BackupResult {
  file: string;
  bytes: number;
  sha256: string;
  events: number;
  keys: KeysState;
}

export interface KeyOptions {
  /** BACKUP_PASSPHRASE. */
  passphrase?: string;
  /** --without-keys: the database alone. */
  withoutKeys?: boolean;
}

/** The first line of a backup file; a plain gzipped tarball (older backups) has no header. */
const MAGIC = 'wallet-ledger backup 1\n';

interface Header {
  keys: SealedKeys | null;
  database: { bytes: number; sha256: string };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A backup file's header and database tarball; a file that is neither a backup nor a tarball is refused. */
function readBackup(file: string): { header: Header; database: Buffer } {
  const bytes = fs.readFileSync(file);
  const magic = Buffer.from(MAGIC);
  if (!bytes.subarray(0, magic.length).equals(magic)) {
    return { header: { keys: null, database: { bytes: bytes.length, sha256: sha256(bytes) } }, database: bytes };
  }
  const end = bytes.indexOf(0x0a, magic.length);
  let header: Header;
  try {
    header = JSON.parse(bytes.subarray(magic.length, end).toString('utf8')) as Header;
  } catch {
    throw new BackupUsageError(`${path.resolve(file)} is not a usable backup: its header is damaged.`);
  }
  const database = bytes.subarray(end + 1);
  if (end < 0 || database.length !== header.database?.bytes || sha256(database) !== header.database.sha256) {
    throw new BackupUsageError(`${path.resolve(file)} is not a usable backup: the database in it is cut short or damaged.`);
  }
  return { header, database };
}

/** Runs `fn`, turning a refusal about the keys into the CLI's one-line usage error. */
function keysStep<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof KeysError) throw new BackupUsageError(err.message);
    throw err;
  }
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

export async function backupDataDir(dataDir: string, out?: string, opts: KeyOptions = {}): Promise<BackupResult> {
  if (!opts.withoutKeys && !opts.passphrase) {
    throw new BackupUsageError(
      'A backup without the keys (DATA_DIR/secrets.json) restores a ledger where no customer with an authenticator can sign in. ' +
        'Set BACKUP_PASSPHRASE to include them, encrypted, or pass --without-keys if they are kept elsewhere.',
    );
  }
  const passphrase = opts.withoutKeys ? undefined : keysStep(() => checkPassphrase(opts.passphrase));
  const pgdata = path.join(dataDir, 'pgdata');
  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION')))
    throw new BackupUsageError(`There is no embedded database in ${path.resolve(dataDir)} to back up.`);
  const file = path.resolve(out ?? path.join(dataDir, 'backups', `ledger-${stamp()}.backup`));
  prepareOutFolder(file);
  const unlock = lockDataDir(dataDir);
  try {
    const pg = new PGlite({ dataDir: pgdata });
    try {
      await pg.waitReady;
      // A checkpoint first, so the copy holds everything committed, not only the write-ahead log.
      await pg.exec('checkpoint');
      const events = await countEvents(pg);
      const dump = Buffer.from(await (await pg.dumpDataDir('gzip')).arrayBuffer());
      const secrets = passphrase ? readSecrets(dataDir) : null;
      const header: Header = {
        keys: secrets === null ? null : sealKeys(secrets, passphrase!),
        database: { bytes: dump.length, sha256: sha256(dump) },
      };
      const bytes = Buffer.concat([Buffer.from(MAGIC), Buffer.from(`${JSON.stringify(header)}\n`), dump]);
      fs.writeFileSync(`${file}.partial`, bytes, { mode: 0o600 });
      fs.renameSync(`${file}.partial`, file);
      const keys: KeysState = !passphrase ? 'left out' : secrets === null ? 'none in DATA_DIR' : 'included';
      return { file, bytes: bytes.length, sha256: sha256(bytes), events, keys };
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
  /** 'restored': secrets.json written (or already the same); otherwise why it was not. */
  keys: 'restored' | 'not in the backup' | 'left out';
  keysKeptAside: string | null;
}

export async function restoreDataDir(dataDir: string, from: string, opts: { force?: boolean } & KeyOptions = {}): Promise<RestoreResult> {
  if (!fs.existsSync(from)) throw new BackupUsageError(`No backup file at ${path.resolve(from)}.`);
  const { header, database } = readBackup(from);
  // The keys are opened before anything is touched: a wrong passphrase changes nothing.
  let secrets: string | null = null;
  if (header.keys && !opts.withoutKeys) {
    if (!opts.passphrase) {
      throw new BackupUsageError(
        'This backup holds the keys, encrypted: set BACKUP_PASSPHRASE to the passphrase it was made with, or pass --without-keys to restore the database alone.',
      );
    }
    secrets = keysStep(() => openKeys(header.keys!, opts.passphrase!));
  }
  const unlock = lockDataDir(dataDir);
  try {
    const pgdata = path.join(dataDir, 'pgdata');
    const current = secrets === null ? null : readSecrets(dataDir);
    const otherKeys = current !== null && !sameKeys(current, secrets!);
    const hasDatabase = fs.existsSync(pgdata) && fs.readdirSync(pgdata).length > 0;
    if (!opts.force && hasDatabase)
      throw new BackupUsageError(`${path.resolve(pgdata)} already holds a database. Pass --force to keep it aside and restore over it.`);
    if (!opts.force && otherKeys)
      throw new BackupUsageError(
        `${path.resolve(secretsFile(dataDir))} holds other keys. Pass --force to keep them aside and restore over them.`,
      );
    let keptAside: string | null = null;
    if (hasDatabase) {
      keptAside = `${pgdata}.before-restore-${stamp()}`;
      fs.renameSync(pgdata, keptAside);
    }
    let events: number;
    try {
      const pg = new PGlite({ dataDir: pgdata, loadDataDir: new Blob([new Uint8Array(database)]) });
      try {
        await pg.waitReady;
        events = await countEvents(pg);
      } finally {
        await pg.close();
      }
    } catch (err) {
      // A broken tarball: put the previous database back as it was.
      fs.rmSync(pgdata, { recursive: true, force: true });
      if (keptAside) fs.renameSync(keptAside, pgdata);
      throw new BackupUsageError(`${path.resolve(from)} is not a usable backup: ${(err as Error).message}`);
    }
    let keysKeptAside: string | null = null;
    if (otherKeys) {
      keysKeptAside = `${secretsFile(dataDir)}.before-restore-${stamp()}`;
      fs.renameSync(secretsFile(dataDir), keysKeptAside);
    }
    if (secrets !== null) writeSecrets(dataDir, secrets);
    const keys = secrets !== null ? 'restored' : header.keys ? 'left out' : 'not in the backup';
    return { from: path.resolve(from), events, keptAside, keys, keysKeptAside };
  } finally {
    unlock();
  }
}
