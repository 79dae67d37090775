import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';

/**
 * Bulk writes with `COPY … FROM STDIN` through Kysely, on both drivers.
 *
 * A statement `copy <table> (<columns>) from stdin` executed with exactly one parameter, a
 * string holding the rows in COPY's text format, is run as a COPY: node-postgres streams the
 * string (`namingClient`, server/db/statement-cache.ts), PGlite reads it as a blob
 * (server/db/pglite-dialect.ts). It runs on the caller's connection, so inside its
 * transaction. Any other driver sends the statement as is and PostgreSQL refuses it (a
 * parameter the statement does not use): it never writes something else silently.
 *
 * COPY parses each value with the column's input function once, straight into the row,
 * where `insert … select from unnest($1::uuid[], …)` parses every array, unnests it and
 * then inserts: for the journal's replay, half the server's time.
 */

const COPY_FROM_STDIN = /^\s*copy\s[^;]*\sfrom\s+stdin\s*$/i;

/** True when the driver must run this statement as COPY FROM STDIN with `params[0]` as its data. */
export function isCopyFromStdin(sqlText: string, params: readonly unknown[] | undefined): params is readonly [string] {
  return params !== undefined && params.length === 1 && typeof params[0] === 'string' && COPY_FROM_STDIN.test(sqlText);
}

/** The same statement reading a PGlite blob instead of STDIN. */
export function copyFromBlob(sqlText: string): string {
  return sqlText.replace(/\bstdin\s*$/i, "'/dev/blob'");
}

const SPECIAL = /[\\\t\n\r]/;

/** A text value in COPY's text format (backslash, tab, newline and carriage return escaped). */
export function copyValue(value: string): string {
  return SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : value;
}

/** COPY's NULL in text format. */
export const COPY_NULL = '\\N';

/**
 * Writes `rows` (COPY text format: one line per row ending in `\n`, values separated by tabs,
 * escaped with `copyValue`) into `table` (`schema.table`), on `db`'s connection.
 */
export async function copyRows(db: Kysely<any> | Transaction<any>, table: string, columns: readonly string[], rows: string): Promise<void> {
  if (rows.length === 0) return;
  const { sql: text } = sql`copy ${sql.table(table)} (${sql.join(columns.map((c) => sql.id(c)))}) from stdin`.compile(db);
  await db.executeQuery(CompiledQuery.raw(text, [rows]));
}

interface PgConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
}

/** What node-postgres answers for a COPY (the shape Kysely reads). */
export interface CopyResult {
  command: 'COPY';
  rowCount: number;
  rows: never[];
  fields: never[];
}

/**
 * A node-postgres submittable that runs one `copy … from stdin` and sends `data` as its
 * input (what pg-copy-streams does, for a string already in memory). `result` settles when
 * the server is ready for the next statement, or with the server's error.
 */
export class CopyFromStdin {
  readonly result: Promise<CopyResult>;
  private resolve!: (r: CopyResult) => void;
  private reject!: (err: unknown) => void;
  private rowCount = 0;
  private settled = false;

  constructor(
    readonly text: string,
    private readonly data: string,
  ) {
    this.result = new Promise<CopyResult>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: PgConnection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: PgConnection): void {
    connection.sendCopyFromChunk(Buffer.from(this.data, 'utf8'));
    connection.endCopyFrom();
  }

  handleCommandComplete(msg: { text?: string }): void {
    const n = Number(/^COPY (\d+)/.exec(msg.text ?? '')?.[1]);
    if (Number.isFinite(n)) this.rowCount = n;
  }

  handleReadyForQuery(): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve({ command: 'COPY', rowCount: this.rowCount, rows: [], fields: [] });
  }

  /** The server's error (the client drops this statement then) or a broken connection. */
  handleError(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(err);
  }

  // Messages a COPY FROM does not produce.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}
