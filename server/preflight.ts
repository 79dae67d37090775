import { randomBytes } from 'node:crypto';
import dns from 'node:dns/promises';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { ConfigError, type Config } from './config.js';
import { openRedis } from './shared-state.js';

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

/** The first line of an error, with its code when it has one that is not PostgreSQL's. */
function reasonOf(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const message = String(e?.message || e).split('\n')[0]!;
  return e?.code && !/^[0-9A-Z]{5}$/.test(e.code) && !message.includes(e.code) ? `${e.code}: ${message}` : message;
}

/**
 * Why the server cannot listen on HOST:PORT, as the one line naming the variable at fault: a port
 * taken or reserved is PORT's, a name that does not resolve or an address of another machine is HOST's.
 */
export function listenRefusal(err: unknown, host: string, port: number): ConfigError | undefined {
  const code = (err as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'EADDRINUSE':
      return new ConfigError(
        `Invalid configuration: PORT: port ${port} on ${host} is already in use (EADDRINUSE); stop what listens there or choose another PORT`,
      );
    case 'EACCES':
      return new ConfigError(
        `Invalid configuration: PORT: port ${port} on ${host} needs privileges this process does not have (EACCES); choose a port above 1023`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return new ConfigError(`Invalid configuration: HOST: ${host} cannot be resolved to an address (${code})`);
    case 'EADDRNOTAVAIL':
      return new ConfigError(
        `Invalid configuration: HOST: ${host} is not an address of this machine (EADDRNOTAVAIL); use one of its own, 0.0.0.0 or 127.0.0.1`,
      );
    default:
      return undefined;
  }
}

/**
 * HOST resolves to an address of this machine and PORT is free there: tried by listening for a
 * moment before the database opens, so that a start that cannot serve stops in one line, not after
 * its migrations with a stack. (main.ts maps a failure of the real listen the same way.)
 */
export async function checkListen(host: string, port: number): Promise<void> {
  let address: string;
  try {
    address = (await dns.lookup(host)).address;
  } catch (err) {
    throw listenRefusal(err, host, port) ?? new ConfigError(`Invalid configuration: HOST: ${host} cannot be resolved (${reasonOf(err)})`);
  }
  const server = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: address, port, exclusive: true }, resolve);
    });
  } catch (err) {
    throw (
      listenRefusal(err, host, port) ?? new ConfigError(`Invalid configuration: HOST: cannot listen on ${host}:${port} (${reasonOf(err)})`)
    );
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** An SMTP URL without its password, for a message. */
function describeSmtp(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === 'smtps:' ? '465' : '587')}`;
  } catch {
    return 'the given address';
  }
}

/**
 * The mail server answers and takes the URL's credentials (nodemailer's `verify`: connect, EHLO,
 * STARTTLS when offered, AUTH when the URL has a user). Refused at start: an SMTP_URL that cannot
 * send would otherwise lose every confirmation and reset mail, one warning in the log at a time.
 */
export async function checkSmtpUrl(url: string, timeoutMs = DATABASE_CONNECT_TIMEOUT_MS): Promise<void> {
  const transport = nodemailer.createTransport({ url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
  try {
    await transport.verify();
  } catch (err) {
    throw new ConfigError(`Invalid configuration: SMTP_URL: cannot use the mail server at ${describeSmtp(url)} (${reasonOf(err)})`);
  } finally {
    transport.close();
  }
}

export const PREPARED_STATEMENTS_REFUSED =
  'Invalid configuration: DB_PREPARED_STATEMENTS: true, but a statement prepared on this database connection is unknown to the next transaction (a transaction pooler such as PgBouncer before 1.21, or without max_prepared_statements); set DB_PREPARED_STATEMENTS=false';

/**
 * With DB_PREPARED_STATEMENTS=true, a statement prepared in one transaction must still be known in
 * the next, whichever server connection a pooler gives it. Tried with two connections: the first
 * prepares a named statement, the second opens a transaction (a pooler in transaction mode gives it
 * the server connection just released, the first one's), and the first runs its statement again,
 * which node-postgres then only binds. On PostgreSQL directly, in session pooling, or through a
 * pooler that tracks prepared statements it runs; through one that does not, the server says the
 * statement does not exist, and the start is refused rather than every request failing later.
 */
export async function checkPreparedStatements(url: string, timeoutMs = DATABASE_CONNECT_TIMEOUT_MS): Promise<void> {
  const options = { connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs };
  const first = new pg.Client(options);
  const other = new pg.Client(options);
  for (const c of [first, other]) c.on('error', () => {});
  const probe = {
    name: `wallet_ledger_probe_${randomBytes(8).toString('hex')}`,
    text: 'select pg_backend_pid() as pid, $1::int as n',
    values: [1],
  };
  try {
    await first.connect();
    await other.connect();
    // A pooler that gives the second transaction another server connection than expected proves
    // nothing either way: tried a few times, then taken as keeping them (PostgreSQL directly).
    for (let attempt = 0; attempt < 3; attempt++) {
      const { rows: prepared } = await first.query<{ pid: number }>(probe);
      await other.query('begin');
      try {
        const { rows: held } = await other.query<{ pid: number }>('select pg_backend_pid() as pid');
        await first.query(probe);
        if (held[0]!.pid === prepared[0]!.pid) return; // it ran on another server connection, which knew it
      } finally {
        await other.query('rollback');
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === '26000' || code === '42P05') throw new ConfigError(PREPARED_STATEMENTS_REFUSED);
    // A pooler with one server connection makes the first wait for the second: nothing to conclude.
    if (/timeout/i.test(String((err as Error).message))) return;
    throw new ConfigError(`Invalid configuration: DATABASE_URL: cannot use the database at ${describe(url)} (${reasonOf(err)})`);
  } finally {
    await Promise.all([first.end().catch(() => {}), other.end().catch(() => {})]);
  }
}

/** Checks of the environment that the schema cannot make: run once at start, before the app opens anything. */
export async function preflight(config: Config): Promise<void> {
  checkDataDir(config.DATA_DIR);
  await checkListen(config.HOST, config.PORT);
  if (config.DATABASE_URL) {
    await checkDatabaseUrl(config.DATABASE_URL);
    if (config.DB_PREPARED_STATEMENTS === 'true') await checkPreparedStatements(config.DATABASE_URL);
  }
  if (config.SMTP_URL) await checkSmtpUrl(config.SMTP_URL);
  // Before the database is migrated, not after: openRedis refuses an unreachable Redis or a database it lacks.
  if (config.REDIS_URL) await (await openRedis(config.REDIS_URL)).quit();
}
