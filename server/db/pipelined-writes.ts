import pg from 'pg';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { checkout, releaseClient, staleConnection, type StatementNames } from './pool.js';

/**
 * Transactions whose plain writes go out without waiting for their answers, on node-postgres'
 * own pipeline mode (a pool made with `pipeline: true`: each query is sent at once, unnamed,
 * with its own Sync, and answered in order). The read models' transactions write many
 * statements and read few answers; waiting for each write's answer cost a round trip apiece,
 * and in a busy process each answer also waits its turn on the event loop.
 *
 * Inside a transaction a plain write (`holdable`) is sent and its promise resolves at once
 * with no rows; the next statement that is answered, or the COMMIT, first settles every write
 * sent before it and fails with the first write's error (PostgreSQL has then aborted the
 * transaction, and it rolls back as a whole). A caller must not rely on such a write's row
 * count. Everything stays inside BEGIN ... COMMIT on one server connection, so a transaction
 * pooler (PgBouncer in transaction mode) keeps the connection for it.
 */

/** A plain write without RETURNING: INSERT, UPDATE, DELETE, TRUNCATE. Anything else is answered. */
const WRITE = /^\s*(?:insert|update|delete|truncate)\b/i;
const RETURNING = /\breturning\b/i;

function holdable(text: string): boolean {
  return WRITE.test(text) && !RETURNING.test(text);
}

/** What Kysely expects of a statement's result (as its PostgresConnection gives it). */
function queryResult<R>(r: pg.QueryResult): QueryResult<R> {
  const c = r.command;
  return {
    numAffectedRows: c === 'INSERT' || c === 'UPDATE' || c === 'DELETE' || c === 'MERGE' ? BigInt(r.rowCount ?? 0) : undefined,
    rows: (r.rows ?? []) as R[],
  };
}

class PipelinedConnection implements DatabaseConnection {
  private sent: Promise<unknown>[] = [];
  inTransaction = false;

  constructor(
    readonly client: pg.PoolClient,
    private readonly names?: StatementNames,
  ) {}

  /** The first error that makes the connection stale (server/db/pool.ts): then it is closed, not pooled again. */
  failure: unknown;

  /** Sends `text` now, named when the pool prepares its statements (server/db/pool.ts). */
  private query(text: string, values: readonly unknown[]): Promise<pg.QueryResult> {
    return this.client.query({ name: this.names?.nameOf(text, values), text, values: values as unknown[] }).catch((err: unknown) => {
      if (this.failure === undefined && staleConnection(err)) this.failure = err;
      throw err;
    });
  }

  /** Sends a statement at once; its promise is kept, with its rejection handled, for `settle`. */
  send(text: string, values: readonly unknown[] = []): void {
    const answer = this.query(text, values);
    answer.catch(() => {});
    this.sent.push(answer);
  }

  /** Waits for every statement sent without waiting; throws the first one's error. */
  async settle(): Promise<void> {
    const sent = this.sent;
    this.sent = [];
    const outcomes = await Promise.allSettled(sent);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction && holdable(query.sql)) {
      this.send(query.sql, query.parameters);
      return { rows: [] };
    }
    // Sent right behind the writes before it, before any of them is answered.
    const answer = this.query(query.sql, query.parameters);
    answer.catch(() => {});
    await this.settle();
    return queryResult<R>(await answer);
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on a pipelined connection');
  }
}

class PipelinedDriver implements Driver {
  constructor(
    private readonly pool: pg.Pool,
    private readonly names?: StatementNames,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PipelinedConnection(await checkout(this.pool), this.names);
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = conn as PipelinedConnection;
    let text = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      text = `start transaction${settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : ''}${settings.accessMode ? ` ${settings.accessMode}` : ''}`;
    }
    // Sent without waiting, like the writes that follow it.
    c.send(text);
    c.inTransaction = true;
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as PipelinedConnection;
    c.inTransaction = false;
    // COMMIT of an aborted transaction answers ROLLBACK without an error: a failed write's
    // error is what the caller must see.
    await c.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as PipelinedConnection;
    c.inTransaction = false;
    await c.settle().catch(() => {});
    await c.client.query('rollback');
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    const c = conn as PipelinedConnection;
    await c.settle().catch(() => {});
    c.inTransaction = false;
    releaseClient(c.client, c.failure);
  }

  /** The pool is ended by its owner (openDatabase's close). */
  async destroy(): Promise<void> {}
}

/** A PostgreSQL dialect over `pool` (made with `pipeline: true`) whose transactions send their writes without waiting. */
export function pipelinedWritesDialect(pool: pg.Pool, names?: StatementNames): Dialect {
  return {
    createDriver: () => new PipelinedDriver(pool, names),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createAdapter: () => new PostgresAdapter(),
    createIntrospector: (db: Kysely<any>) => new PostgresIntrospector(db),
  };
}
