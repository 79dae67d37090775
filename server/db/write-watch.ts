import type { CompiledQuery, DatabaseConnection, Dialect, Driver, Kysely, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';

/**
 * Counts writes to the tables that decide who a request is (users, sessions, second
 * factors) and what a customer may do with money (their profile's permissions, their
 * payment methods), so that a short-lived cache of those rows (`WatchedCache`) can tell it
 * is out of date.
 *
 * The epoch moves when such a write finishes and, for a write inside a transaction, again
 * when that transaction ends, so a read taken while the write was uncommitted is never
 * trusted after the commit. Every statement of the process goes through here (builder and
 * raw SQL alike); another process's writes are not seen (the cache's age limit covers them).
 */
export class WriteWatch {
  epoch = 0;
  bump(): void {
    this.epoch++;
  }
}

const WATCHED =
  /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?|copy)\s+(?:only\s+)?(?:"?public"?\.)?"?(?:users|auth_sessions|auth_mfa_factors|user_profiles|user_payment_methods_raw)\b/i;

/**
 * Reads answered from memory: an entry is reused until this process writes a watched table
 * (the epoch moves) or `maxAgeMs` passes (for another process's writes). A read during which
 * the epoch moved is not kept. The map is emptied when it reaches `maxSize`.
 */
export class WatchedCache<V> {
  private readonly entries = new Map<string, { at: number; epoch: number; value: V }>();

  constructor(
    private readonly watch: WriteWatch,
    private readonly opts: { maxAgeMs: number; maxSize: number; keep?: (value: V) => boolean },
  ) {}

  async get(key: string, read: () => Promise<V>): Promise<V> {
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit && hit.epoch === this.watch.epoch && now - hit.at < this.opts.maxAgeMs) return hit.value;
    const epoch = this.watch.epoch;
    const value = await read();
    if (epoch === this.watch.epoch && (this.opts.keep?.(value) ?? true)) {
      if (this.entries.size >= this.opts.maxSize) this.entries.clear();
      this.entries.set(key, { at: now, epoch, value });
    }
    return value;
  }
}

/** Answers of `writesWatchedTable` by statement text: the app runs few texts, many times. */
const watchedByText = new Map<string, boolean>();
const WATCHED_TEXTS_KEPT = 2000;

/** True when a statement writes one of the watched tables. */
export function writesWatchedTable(sqlText: string): boolean {
  let writes = watchedByText.get(sqlText);
  if (writes === undefined) {
    writes = WATCHED.test(sqlText);
    if (watchedByText.size >= WATCHED_TEXTS_KEPT) watchedByText.clear();
    watchedByText.set(sqlText, writes);
  }
  return writes;
}

class WatchedConnection implements DatabaseConnection {
  inTransaction = false;
  dirty = false;
  constructor(
    readonly inner: DatabaseConnection,
    private readonly watch: WriteWatch,
  ) {}
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const writes = writesWatchedTable(query.sql);
    if (writes && this.inTransaction) this.dirty = true;
    try {
      return await this.inner.executeQuery<R>(query);
    } finally {
      if (writes) this.watch.bump();
    }
  }
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class WatchedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly watch: WriteWatch,
  ) {}
  init(): Promise<void> {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new WatchedConnection(await this.inner.acquireConnection(), this.watch);
  }
  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = conn as WatchedConnection;
    await this.inner.beginTransaction(c.inner, settings);
    c.inTransaction = true;
    c.dirty = false;
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as WatchedConnection;
    try {
      await this.inner.commitTransaction(c.inner);
    } finally {
      this.end(c);
    }
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as WatchedConnection;
    try {
      await this.inner.rollbackTransaction(c.inner);
    } finally {
      this.end(c);
    }
  }
  private end(c: WatchedConnection): void {
    if (c.dirty) this.watch.bump();
    c.inTransaction = false;
    c.dirty = false;
  }
  // Savepoints (nested transactions), when the inner driver has them.
  savepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.savepoint!((conn as WatchedConnection).inner, name, compile);
  }
  rollbackToSavepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.rollbackToSavepoint!((conn as WatchedConnection).inner, name, compile);
  }
  releaseSavepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.releaseSavepoint!((conn as WatchedConnection).inner, name, compile);
  }
  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    await this.inner.releaseConnection((conn as WatchedConnection).inner);
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** The dialect with every statement passing the watch. */
export function watchWrites(dialect: Dialect, watch: WriteWatch): Dialect {
  const driver = new WatchedDriver(dialect.createDriver(), watch);
  return {
    createDriver: () => driver,
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db: Kysely<any>) => dialect.createIntrospector(db),
  };
}
