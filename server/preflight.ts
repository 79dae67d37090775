import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { ConfigError, type Config } from './config.js';

/** How long start-up waits for the database before it gives up with a clear line. */
export const DATABASE_CONNECT_TIMEOUT_MS = 5_000;

/** Kernel and device file systems: nothing of the app's belongs there. */
const SYSTEM_TREES = ['/proc', '/sys', '/dev'];

/**
 * DATA_DIR must be a folder the process can write (secrets, blobs, the embedded database, the
 * outbox): a file there, a path under /proc, or a read-only folder is refused before anything opens.
 */
export function checkDataDir(dataDir: string): void {
  const resolved = path.resolve(dataDir);
  if (SYSTEM_TREES.some((tree) => resolved === tree || resolved.startsWith(`${tree}/`))) {
    throw new ConfigError(
      `Invalid configuration: DATA_DIR: ${resolved} is in a system file system (${SYSTEM_TREES.join(', ')}); choose a folder of your own`,
    );
  }
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(resolved);
  } catch {
    // missing: made below
  }
  if (stat && !stat.isDirectory()) throw new ConfigError(`Invalid configuration: DATA_DIR: ${resolved} is a file, not a folder`);
  try {
    fs.mkdirSync(resolved, { recursive: true });
    fs.accessSync(resolved, fs.constants.W_OK);
  } catch (err) {
    throw new ConfigError(
      `Invalid configuration: DATA_DIR: ${resolved} cannot be created or written (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
}

/** The database URL without its password, for a message. */
function describe(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'the given address';
  }
}

/** One connection and `select 1`, bounded in time: an unreachable or refusing server is one line, not a hang or a stack. */
export async function checkDatabaseUrl(url: string, timeoutMs = DATABASE_CONNECT_TIMEOUT_MS): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => {}); // a late socket error after the answer below changes nothing
  try {
    await client.connect();
    await client.query('select 1');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const reason = (e.code && !/^[0-9A-Z]{5}$/.test(e.code) ? `${e.code}: ` : '') + String(e.message || e).split('\n')[0];
    throw new ConfigError(`Invalid configuration: DATABASE_URL: cannot use the database at ${describe(url)} (${reason})`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Checks of the environment that the schema cannot make: run once at start, before the app opens anything. */
export async function preflight(config: Config): Promise<void> {
  checkDataDir(config.DATA_DIR);
  if (config.DATABASE_URL) await checkDatabaseUrl(config.DATABASE_URL);
}
