import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type Transaction,
} from 'kysely';

/**
 * Migrations as one transaction that holds its own lock, so that they hold no session state.
 *
 * Kysely's migrator for PostgreSQL takes a session-level advisory lock with one statement,
 * runs the migrations in a transaction, and releases the lock with a third statement. Behind
 * a transaction pooler (PgBouncer in transaction mode) each of those may run on another
 * server connection: the release then finds no lock, and the lock stays with the server
 * connection that took it, back in the pooler's pool. The next app instance to start waits
 * for it (up to Kysely's hour), which is how an instance started beside another one hung
 * there.
 *
 * Here the caller's transaction takes a transaction-level lock first (released by its commit
 * or rollback, wherever the pooler puts the next statement) and the migrator runs inside it,
 * with no transaction and no lock of its own.
 */
const MIGRATION_LOCK = 'wallet-ledger:migrations';

/** Every statement through `trx`, the caller's transaction. */
class ThroughTransaction implements Driver {
  constructor(private readonly trx: Transaction<any>) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const trx = this.trx;
    return {
      executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> => trx.executeQuery<R>(query),
      // eslint-disable-next-line require-yield
      async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
        throw new Error('migrations do not stream');
      },
    };
  }
  // The migrator is told not to open transactions (`disableTransactions`).
  async beginTransaction(): Promise<void> {
    throw new Error('migrations run inside the caller\u2019s transaction');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

/** The caller's transaction holds the lock (`lockedTransaction`): the migrator takes none. */
class LockHeldAdapter extends PostgresAdapter {
  override async acquireMigrationLock(): Promise<void> {}
  override async releaseMigrationLock(): Promise<void> {}
}

/** A Kysely that runs everything inside `trx`, for a Migrator given `disableTransactions: true`. */
export function insideTransaction(trx: Transaction<any>): Kysely<any> {
  const dialect: Dialect = {
    createDriver: () => new ThroughTransaction(trx),
    createAdapter: () => new LockHeldAdapter(),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db) => new PostgresIntrospector(db),
  };
  return new Kysely<any>({ dialect });
}

/** Runs `work` in one transaction that first waits for the migration lock. */
export async function lockedTransaction<T>(db: Kysely<any>, work: (trx: Transaction<any>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${MIGRATION_LOCK}))`.execute(trx);
    return work(trx);
  });
}
