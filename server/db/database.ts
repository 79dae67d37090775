import path from 'node:path';
import fs from 'node:fs';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.js';
import { lockDataDir } from './data-dir-lock.js';
import { watchWrites, WriteWatch } from './write-watch.js';
import { pipelinedWritesDialect } from './pipelined-writes.js';
import { kyselyPool, StatementNames } from './pool.js';
import type { DB } from './schema.js';

// numeric and int8 come back as strings from both drivers: money never passes through a float.
const INT8 = 20;
const NUMERIC = 1700;
pg.types.setTypeParser(INT8, (v) => v);
pg.types.setTypeParser(NUMERIC, (v) => v);

/**
 * The planner's cost of reading a page at random. The ledger's tables are read from memory
 * or SSD, where a random page costs about what the next one does; PostgreSQL's default
 * `random_page_cost` (4) is priced for spinning disks. With it, whenever the statistics say
 * a customer has a few rows (they lag behind a growing table, and they give every customer
 * the average), the plan of the transactions page reads the customer's whole history and
 * sorts it to answer ten rows, instead of walking the index in the list's order (migration
 * 0019) to the page's end (docs/performance.md, "Findings the code keeps"; round 8 in that
 * file's git history; the plan is tested in server/transactions/list.int.spec.ts).
 *
 * On PostgreSQL it is the database's own setting (migration 0025), so that it holds on every
 * server connection, also behind a pooler that hands one client's statements to many
 * connections and refuses startup options (PgBouncer); on PGlite, a `set` on its one session.
 */
export const RANDOM_PAGE_COST = '1.1';

/** Connections of the read models' pool: the live projector writes one page at a time; a replay or a verify beside it takes another. */
const PROJECTION_CONNECTIONS = 4;

export interface Database {
  db: Kysely<DB>;
  kind: 'postgres' | 'pglite';
  /** Set for PostgreSQL: the pool, for the few places that want a raw client (benchmarks). */
  pool?: pg.Pool;
  /**
   * Where the read models are written (the live projector, replays): on PostgreSQL a few
   * connections in node-postgres' pipeline mode, whose transactions send their plain writes
   * without waiting for each answer (server/db/pipelined-writes.ts); on PGlite, `db`.
   */
  projectionDb: Kysely<DB>;
  /** Moves whenever users, sessions or second factors are written (server/db/write-watch.ts). */
  watch: WriteWatch;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** PGlite only: keep everything in memory (tests). */
  inMemory?: boolean;
  /** PGlite only: start from this image of a data folder (`dumpDataDir`) instead of an empty cluster (tests). */
  image?: Blob;
  poolSize?: number;
  /** PostgreSQL only: name the statements, so that each server connection prepares them once (server/db/pool.ts). */
  preparedStatements?: boolean;
  /** PostgreSQL only: how long a query waits for a free connection before it fails (DatabaseBusyError, a 503). */
  checkoutTimeoutMs?: number;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    // node-postgres' own pool and client, as they come: no startup parameter beyond the URL's,
    // and every statement unnamed (parsed where it runs, so any server connection behind a
    // transaction pooler can run it) unless `preparedStatements` names them.
    const openPool = (config: pg.PoolConfig) => {
      const opened = new pg.Pool({
        connectionString: opts.databaseUrl,
        connectionTimeoutMillis: opts.checkoutTimeoutMs ?? 10_000,
        // TCP keepalives: a server that vanished without closing its sockets (a machine lost
        // in a failover) ends its connections here in seconds rather than never.
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
        ...config,
      });
      // An idle client that loses its server must not crash the process.
      opened.on('error', () => {});
      // Nor one that loses it while checked out (the server restarted, an operator ended the
      // backend): its queries are rejected and the pool drops it when it is released, but the
      // client also emits 'error', which the pool listens to only while the client is idle.
      opened.on('connect', (client) => client.on('error', () => {}));
      return opened;
    };
    const pool = openPool({ max: opts.poolSize ?? 20 });
    const pipelined = openPool({ max: PROJECTION_CONNECTIONS, pipeline: true });
    const names = () => (opts.preparedStatements ? new StatementNames() : undefined);
    const watch = new WriteWatch();
    const db = new Kysely<DB>({
      dialect: watchWrites(new PostgresDialect({ pool: kyselyPool(pool, names()) }), watch),
    });
    const projectionDb = new Kysely<DB>({
      dialect: watchWrites(pipelinedWritesDialect(pipelined, names()), watch),
    });
    const close = async () => {
      await Promise.all([db.destroy(), projectionDb.destroy()]);
      await pipelined.end();
    };
    return { db, kind: 'postgres', pool, projectionDb, watch, close };
  }
  let unlock = () => {};
  let dataDir: string | undefined;
  if (!opts.inMemory) {
    const root = opts.dataDir ?? './var';
    unlock = lockDataDir(root);
    dataDir = path.join(root, 'pgdata');
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  }
  try {
    // Loaded only for the embedded database: with DATABASE_URL the WASM build is never read.
    const { PGlite } = await import('@electric-sql/pglite');
    const pglite = new PGlite({
      dataDir,
      loadDataDir: opts.image,
      parsers: { [INT8]: (v: string) => v, [NUMERIC]: (v: string) => v },
    });
    await pglite.waitReady;
    await pglite.exec(`set random_page_cost = ${RANDOM_PAGE_COST}`);
    const watch = new WriteWatch();
    const db = new Kysely<DB>({ dialect: watchWrites(new PGliteDialect(pglite), watch) });
    return {
      db,
      kind: 'pglite',
      projectionDb: db,
      watch,
      close: async () => {
        await db.destroy();
        await pglite.close();
        unlock();
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}
