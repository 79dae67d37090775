import type { PGlite } from '@electric-sql/pglite';
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
} from 'kysely';

/**
 * PGlite is a single Postgres session. Kysely hands a connection to one query or one
 * transaction at a time; a mutex held from acquire to release makes concurrent
 * transactions queue instead of interleaving inside one session (which loses updates).
 */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const acquired = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return acquired;
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const res = await this.pg.query<R>(query.sql, query.parameters as unknown[], { rowMode: 'object' });
    const affected = res.affectedRows;
    return {
      rows: res.rows,
      numAffectedRows: affected === undefined ? undefined : BigInt(affected),
    };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on PGlite');
  }
}

class PGliteDriver implements Driver {
  private readonly mutex = new Mutex();
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();
  private readonly connection: PGliteConnection;
  constructor(private readonly pg: PGlite) {
    this.connection = new PGliteConnection(pg);
  }
  async init(): Promise<void> {
    await this.pg.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.mutex.lock();
    // One physical session, so one wrapper object per acquisition keeps releases paired.
    const conn = Object.create(this.connection) as PGliteConnection;
    this.releases.set(conn, release);
    return conn;
  }
  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    this.releases.get(conn)?.();
    this.releases.delete(conn);
  }
  async destroy(): Promise<void> {
    // The owner closes the PGlite instance (it may outlive this Kysely).
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}
