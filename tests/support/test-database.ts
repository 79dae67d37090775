import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/db/database.js';
import { migrateToLatest } from '../../migrations/index.js';

export interface TestDatabase extends Database {
  /** The URL of this test's own database (PostgreSQL only). */
  url?: string;
  /** Closes this process's connections but keeps the database (for a child process to use). */
  release(): Promise<void>;
}

/** True when this run uses the real PostgreSQL (DATABASE_URL set) rather than PGlite. */
export const usingPostgres = Boolean(process.env.DATABASE_URL);
/**
 * The pass through PgBouncer in transaction pooling (scripts/test.sh sets TEST_DB_POOLER): a
 * session setting made on one client connection stays on the server connection PgBouncer
 * shares, so tests that stand a session setting in for a server state do not apply there.
 */
export const throughPooler = Boolean(process.env.TEST_DB_POOLER);

/**
 * A fresh, migrated database for one test: an in-memory PGlite, or with DATABASE_URL
 * a new database on that server, dropped on close.
 */
export async function createTestDatabase(opts: { migrate?: boolean; poolSize?: number } = {}): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  let database: TestDatabase;
  if (adminUrl) {
    const name = `ledger_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    // DB_PREPARED_STATEMENTS=true (scripts/test.sh, on PostgreSQL directly): the suites run on prepared statements.
    const preparedStatements = process.env.DB_PREPARED_STATEMENTS === 'true';
    const opened = await openDatabase({ databaseUrl: url.toString(), poolSize: opts.poolSize ?? 30, preparedStatements });
    let released: Promise<void> | undefined;
    const release = () => (released ??= opened.close());
    database = {
      ...opened,
      url: url.toString(),
      release,
      close: async () => {
        await release();
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  } else if (opts.migrate !== false) {
    // A copy of one migrated cluster, made once per test process: creating a PGlite cluster
    // (initdb in WebAssembly) took 2.6 to 4.3 s, loading the image about 1.1 s.
    const opened = await openDatabase({ inMemory: true, image: await migratedImage() });
    return { ...opened, release: () => opened.close() };
  } else {
    const opened = await openDatabase({ inMemory: true });
    database = { ...opened, release: () => opened.close() };
  }
  if (opts.migrate !== false) await migrateToLatest(database.db);
  return database;
}

let image: Promise<Blob> | undefined;

/** The data folder of an in-memory PGlite with every migration run, as `dumpDataDir` writes it. */
function migratedImage(): Promise<Blob> {
  image ??= (async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const { Kysely } = await import('kysely');
    const { PGliteDialect } = await import('../../server/db/pglite-dialect.js');
    const pglite = new PGlite();
    const db = new Kysely<any>({ dialect: new PGliteDialect(pglite) });
    try {
      await migrateToLatest(db);
      return await pglite.dumpDataDir('none');
    } finally {
      await db.destroy();
      await pglite.close();
    }
  })();
  image.catch(() => (image = undefined));
  return image;
}
