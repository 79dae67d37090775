import pg from 'pg';
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';

/**
 * A Kysely over `servers` connections to `url` that hands them out as PgBouncer does in
 * transaction mode, made deterministic: a transaction keeps one server connection from BEGIN
 * to its end, and each statement outside a transaction goes to the next server connection in
 * turn. What a session sets (an advisory lock, a SET) thus stays with a connection the next
 * statement does not get.
 */
export async function transactionPooler(url: string, servers = 3): Promise<{ db: Kysely<any>; close: () => Promise<void> }> {
  const clients = await Promise.all(
    Array.from({ length: servers }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  let next = 0;
  const turn = () => clients[next++ % clients.length]!;
  const run = async <R>(client: pg.Client, query: CompiledQuery): Promise<QueryResult<R>> => {
    const r = await client.query(query.sql, query.parameters as unknown[]);
    return { rows: (r.rows ?? []) as R[], numAffectedRows: r.rowCount === null ? undefined : BigInt(r.rowCount) };
  };
  class PoolerConnection implements DatabaseConnection {
    pinned: pg.Client | null = null;
    executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      return run<R>(this.pinned ?? turn(), query);
    }
    // eslint-disable-next-line require-yield
    async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
      throw new Error('not supported');
    }
  }
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => new PoolerConnection(),
    beginTransaction: async (conn) => {
      const c = conn as PoolerConnection;
      c.pinned = turn();
      await c.pinned.query('begin');
    },
    commitTransaction: async (conn) => {
      const c = conn as PoolerConnection;
      await c.pinned!.query('commit');
      c.pinned = null;
    },
    rollbackTransaction: async (conn) => {
      const c = conn as PoolerConnection;
      await c.pinned!.query('rollback');
      c.pinned = null;
    },
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const db = new Kysely<any>({
    dialect: {
      createDriver: () => driver,
      createAdapter: () => new PostgresAdapter(),
      createQueryCompiler: () => new PostgresQueryCompiler(),
      createIntrospector: (k) => new PostgresIntrospector(k),
    },
  });
  return { db, close: async () => void (await Promise.all(clients.map((c) => c.end()))) };
}
