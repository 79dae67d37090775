import pg from 'pg';
import { CompiledQuery, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult, type TransactionSettings } from 'kysely';
import { copyBytes, isCopyFromStdin, type CopyData, type PgConnection } from './copy-from.js';
import type { StatementNames } from './statement-cache.js';

/**
 * Several statements sent to PostgreSQL at once, answered in one round trip.
 *
 * node-postgres sends a statement only when the one before it has been answered, so a
 * transaction of eight statements waits for eight answers, and in a busy process each answer
 * also waits for its turn on the event loop. The protocol lets a client send statements
 * without waiting (pipelining): each goes as Parse, Bind, Describe and Execute, a COPY with
 * its data, and one Sync ends the lot. The server answers them in order; after an error it
 * skips everything up to the Sync, so the statements after a failed one never run.
 */

export interface PipelineStatement {
  text: string;
  values: readonly unknown[];
}

interface PgResult {
  command: string | null;
  rowCount: number | null;
  rows: unknown[];
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): unknown;
  addRow(row: unknown): void;
  addCommandComplete(msg: unknown): void;
}

/** What a pipeline uses of node-postgres' connection, beyond what a COPY does. */
interface PipelineConnection extends PgConnection {
  parsedStatements: Record<string, string>;
  parse(q: { text: string; name?: string }): void;
  bind(q: { portal?: string; statement?: string; values?: readonly unknown[] }): void;
  describe(q: { type: 'P' | 'S'; name?: string }): void;
  execute(q: { portal?: string; rows?: number }): void;
  sync(): void;
  on(event: 'parseComplete', listener: () => void): void;
  off(event: 'parseComplete', listener: () => void): void;
}

// node-postgres' own result class and value serialiser, so that rows and parameters read and
// go exactly as with `client.query`.
const { Result, utils } = pg as unknown as { Result: new () => PgResult; utils: { prepareValue(v: unknown): unknown } };

/**
 * A node-postgres submittable that sends `statements` in one write and settles when the
 * server has answered them all (`results`, one per statement), or with the first error.
 * Statements the pool names (`StatementNames`) are parsed once per connection, as with
 * `client.query`.
 */
export class Pipeline {
  readonly results: Promise<PgResult[]>;
  private resolve!: (r: PgResult[]) => void;
  private reject!: (err: unknown) => void;
  private readonly answers: PgResult[];
  private current = 0;
  private settled = false;
  private unreadable: unknown = null;
  /** Named statements parsed by this pipeline, in the order of their ParseComplete. */
  private readonly parsing: { name: string; text: string }[] = [];
  private onParsed: (() => void) | null = null;
  private connection: PipelineConnection | null = null;

  constructor(
    private readonly statements: readonly PipelineStatement[],
    private readonly names?: StatementNames,
  ) {
    this.answers = statements.map(() => new Result());
    this.results = new Promise<PgResult[]>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: PipelineConnection): Error | null {
    // Every value serialised before anything is written: a value that cannot be sent fails
    // the pipeline with nothing on the wire (node-postgres reports a returned error). A COPY
    // has its data instead (null here).
    let values: (unknown[] | null)[];
    try {
      values = this.statements.map((s) => (isCopyFromStdin(s.text, s.values) ? null : s.values.map((v) => utils.prepareValue(v))));
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
    this.connection = connection;
    this.onParsed = () => {
      const parsed = this.parsing.shift();
      if (parsed && parsed.name) connection.parsedStatements[parsed.name] = parsed.text;
    };
    connection.on('parseComplete', this.onParsed);
    connection.stream?.cork?.();
    try {
      this.statements.forEach((s, i) => {
        const params = values[i];
        if (!params) {
          this.send(connection, s.text, [], '');
          connection.sendCopyFromChunk(copyBytes(s.values[0] as CopyData));
          connection.endCopyFrom();
          return;
        }
        const name = params.length > 0 ? (this.names?.nameFor(s.text) ?? '') : '';
        this.send(connection, s.text, params, name);
      });
      connection.sync();
    } finally {
      connection.stream?.uncork?.();
    }
    return null;
  }

  private send(connection: PipelineConnection, text: string, values: readonly unknown[], name: string): void {
    // A name is parsed once: on an earlier use of the connection, or earlier in this pipeline.
    if (!name || (connection.parsedStatements[name] !== text && !this.parsing.some((p) => p.name === name))) {
      this.parsing.push({ name, text });
      connection.parse({ text, name });
    }
    connection.bind({ portal: '', statement: name, values });
    connection.describe({ type: 'P', name: '' });
    connection.execute({ portal: '', rows: 0 });
  }

  handleRowDescription(msg: { fields: unknown[] }): void {
    this.answers[this.current]?.addFields(msg.fields);
  }

  handleDataRow(msg: { fields: unknown[] }): void {
    const answer = this.answers[this.current];
    if (!answer || this.unreadable) return;
    try {
      answer.addRow(answer.parseRow(msg.fields));
    } catch (err) {
      // A value no type parser could read: the pipeline fails once the server is done.
      this.unreadable = err;
    }
  }

  handleCommandComplete(msg: unknown): void {
    this.answers[this.current]?.addCommandComplete(msg);
    this.current++;
  }

  handleEmptyQuery(): void {
    this.current++;
  }

  /** The COPY's data went with its statement (`submit`). */
  handleCopyInResponse(): void {}
  handleCopyData(): void {}
  handlePortalSuspended(): void {}

  handleReadyForQuery(): void {
    this.finish();
    if (this.unreadable) this.reject(this.unreadable);
    else if (this.current < this.statements.length) this.reject(new Error(`the pipeline was answered for ${this.current} of ${this.statements.length} statements`));
    else this.resolve(this.answers);
  }

  /** The server's first error (it skipped the statements after it) or a broken connection. */
  handleError(err: unknown): void {
    if (!this.finish()) return;
    this.reject(err);
  }

  private finish(): boolean {
    if (this.settled) return false;
    this.settled = true;
    if (this.onParsed) this.connection?.off('parseComplete', this.onParsed);
    return true;
  }
}

/** Runs `statements` on `client` in one round trip, naming statements as the pool does. */
export function runPipeline(client: pg.PoolClient, statements: readonly PipelineStatement[], names?: StatementNames): Promise<PgResult[]> {
  const pipeline = new Pipeline(statements, names);
  client.query(pipeline as unknown as pg.QueryConfig);
  return pipeline.results;
}

/**
 * A statement a transaction may hold: a plain write (INSERT, UPDATE, DELETE, COPY, TRUNCATE)
 * without RETURNING. Anything else (a query, a WITH, a write with RETURNING) is answered.
 */
const WRITE = /^\s*(?:insert|update|delete|copy|truncate)\b/i;
const RETURNING = /\breturning\b/i;

function holdable(text: string): boolean {
  return WRITE.test(text) && !RETURNING.test(text);
}

/** What Kysely expects of a statement's result (as its PostgresConnection gives it). */
function queryResult<R>(r: { command: string | null; rowCount: number | null; rows: unknown[] }): QueryResult<R> {
  const c = r.command;
  return {
    numAffectedRows: c === 'INSERT' || c === 'UPDATE' || c === 'DELETE' || c === 'MERGE' ? BigInt(r.rowCount ?? 0) : undefined,
    rows: (r.rows ?? []) as R[],
  };
}

/**
 * A connection whose transactions send their writes late. Inside a transaction, a plain
 * write (`holdable`) is held and its promise resolves at once with no rows; the held
 * statements go with the next statement that is answered, or with the COMMIT, in one round
 * trip. A held statement that fails makes that later statement (or the COMMIT) fail with
 * its error, and the transaction rolls back as a whole.
 *
 * For transactions that write without reading what they wrote: the read models' (the live
 * projector, replays). A caller must not rely on a held write's row count.
 */
class PipelinedConnection implements DatabaseConnection {
  private held: PipelineStatement[] = [];
  private inTransaction = false;
  /** Whether some statement of the current transaction has reached the server. */
  private sent = false;

  constructor(
    readonly client: pg.PoolClient,
    private readonly names?: StatementNames,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const statement = { text: query.sql, values: query.parameters };
    if (this.inTransaction && holdable(statement.text)) {
      this.held.push(statement);
      return { rows: [] };
    }
    this.sent = true;
    if (this.held.length === 0) return queryResult(await this.client.query(statement.text, statement.values as unknown[]));
    const batch = this.held;
    this.held = [];
    batch.push(statement);
    const results = await runPipeline(this.client, batch, this.names);
    return queryResult(results[results.length - 1]!);
  }

  /** Starts a transaction: its BEGIN is held like its writes. */
  begin(text: string): void {
    this.inTransaction = true;
    this.sent = false;
    this.held = [{ text, values: [] }];
  }

  /** Sends what is held with the COMMIT; a transaction that did nothing sends nothing. */
  async commit(): Promise<void> {
    this.inTransaction = false;
    if (this.sent || this.held.length > 1) await this.executeQuery(CompiledQuery.raw('commit'));
    this.reset();
  }

  /** Drops what is held (none of it ran) and rolls back what reached the server. */
  async rollback(): Promise<void> {
    const sent = this.sent;
    this.reset();
    if (sent) await this.client.query('rollback');
  }

  reset(): void {
    this.inTransaction = false;
    this.sent = false;
    this.held = [];
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
    return new PipelinedConnection(await this.pool.connect(), this.names);
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let text = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      text = `start transaction${settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : ''}${settings.accessMode ? ` ${settings.accessMode}` : ''}`;
    }
    (conn as PipelinedConnection).begin(text);
  }

  commitTransaction(conn: DatabaseConnection): Promise<void> {
    return (conn as PipelinedConnection).commit();
  }

  rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    return (conn as PipelinedConnection).rollback();
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    const c = conn as PipelinedConnection;
    c.reset();
    c.client.release();
  }

  /** The pool belongs to the process's main Kysely instance, which ends it. */
  async destroy(): Promise<void> {}
}

/**
 * A PostgreSQL dialect over `pool` whose transactions send their writes late
 * (`PipelinedConnection`), naming statements with the pool's `names`. It does not end the pool.
 */
export function pipelinedDialect(pool: pg.Pool, names?: StatementNames): Dialect {
  return {
    createDriver: () => new PipelinedDriver(pool, names),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createAdapter: () => new PostgresAdapter(),
    createIntrospector: (db: Kysely<any>) => new PostgresIntrospector(db),
  };
}
