import { CompiledQuery, sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { CopyBinary } from './copy-binary.js';

/**
 * Bulk writes with `COPY … FROM STDIN` through Kysely, on both drivers.
 *
 * A statement `copy <table> (<columns>) from stdin [with (format binary)]` executed with
 * exactly one parameter, the rows in COPY's text format (a string or its bytes) or its binary
 * format (bytes, `CopyBinary` in server/db/copy-binary.ts), is run as a COPY: node-postgres
 * streams the data (`namingClient`, server/db/statement-cache.ts), PGlite reads it as a blob
 * (server/db/pglite-dialect.ts). It runs on the caller's connection, so inside its
 * transaction. Any other driver sends the statement as is and PostgreSQL refuses it (a
 * parameter the statement does not use): it never writes something else silently.
 *
 * COPY parses each value with the column's input function once, straight into the row,
 * where `insert … select from unnest($1::uuid[], …)` parses every array, unnests it and
 * then inserts: for the journal's replay, half the server's time.
 */

/** What may follow `stdin` at the statement's end: the binary format's option, then nothing. */
const STDIN_END = String.raw`(?:\s+with\s*\(\s*format\s+binary\s*\))?\s*$`;

const COPY_FROM_STDIN = new RegExp(String.raw`^\s*copy\s[^;]*\sfrom\s+stdin` + STDIN_END, 'i');
const STDIN_AT_END = new RegExp(String.raw`\bstdin(?=` + STDIN_END + ')', 'i');

/** COPY's input: text, or its UTF-8 bytes (`CopyText`), or binary-format bytes (`CopyBinary`). */
export type CopyData = string | Uint8Array;

/** True when the driver must run this statement as COPY FROM STDIN with `params[0]` as its data. */
export function isCopyFromStdin(sqlText: string, params: readonly unknown[] | undefined): params is readonly [CopyData] {
  return params !== undefined && params.length === 1 && (typeof params[0] === 'string' || params[0] instanceof Uint8Array) && COPY_FROM_STDIN.test(sqlText);
}

/** The same statement reading a PGlite blob instead of STDIN (in the same format). */
export function copyFromBlob(sqlText: string): string {
  return sqlText.replace(STDIN_AT_END, "'/dev/blob'");
}

const SPECIAL = /[\\\t\n\r]/;

/** A text value in COPY's text format (backslash, tab, newline and carriage return escaped). */
export function copyValue(value: string): string {
  return SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : value;
}

/** COPY's NULL in text format. */
export const COPY_NULL = '\\N';

const NEWLINE = 0x0a;

/**
 * COPY text-format input for many rows, kept as bytes. A batch built as one string keeps
 * thousands of small strings alive until it is sent (each row's pieces, then the rows),
 * which the young-generation collector copies again at every scavenge; here a row is one
 * flat string while it is written, then copied into one growing buffer and dropped.
 */
export class CopyText {
  private buf = Buffer.alloc(0);
  private len = 0;

  /** Bytes of the rows ended so far. */
  get length(): number {
    return this.len;
  }

  /**
   * A row of text values, each escaped (`copyValue`); null is COPY's NULL, a boolean `t` or `f`.
   * The row is joined into one flat string, so its pieces die at once.
   */
  row(values: readonly (string | boolean | null)[]): this {
    const fields = new Array<string>(values.length);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      fields[i] = v === null || v === undefined ? COPY_NULL : typeof v === 'boolean' ? (v ? 't' : 'f') : SPECIAL.test(v) ? copyValue(v) : v;
    }
    return this.rawRow(fields.join('\t'));
  }

  /** A row the caller wrote in COPY text itself, every value escaped, without its line end. */
  rawRow(text: string): this {
    const most = text.length * 3 + 1;
    if (this.len + most > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + most, 16 * 1024));
      this.buf.copy(next, 0, 0, this.len);
      this.buf = next;
    }
    this.len += this.buf.write(text, this.len);
    this.buf[this.len++] = NEWLINE;
    return this;
  }

  /** The rows ended so far, as bytes for `copyRows` (a view of the buffer: write nothing more after). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

/**
 * Writes `rows` (COPY text format: one line per row ending in `\n`, values separated by tabs,
 * escaped with `copyValue`; or the bytes of a `CopyText`) into `table` (`schema.table`), on
 * `db`'s connection.
 */
export async function copyRows(db: Kysely<any> | Transaction<any>, table: string, columns: readonly string[], rows: CopyData): Promise<void> {
  if (rows.length === 0) return;
  await runCopy(db, sql`copy ${sql.table(table)} (${columnList(columns)}) from stdin`, rows);
}

/** Writes the rows of a `CopyBinary` into `table` (`schema.table`), on `db`'s connection. */
export async function copyBinaryRows(db: Kysely<any> | Transaction<any>, table: string, columns: readonly string[], rows: CopyBinary): Promise<void> {
  if (rows.rowCount === 0) return;
  await runCopy(db, sql`copy ${sql.table(table)} (${columnList(columns)}) from stdin with (format binary)`, rows.bytes());
}

const columnList = (columns: readonly string[]) => sql.join(columns.map((c) => sql.id(c)));

/** Runs a `copy … from stdin` statement with its data as the one parameter (see above). */
async function runCopy(db: Kysely<any> | Transaction<any>, statement: RawBuilder<unknown>, data: CopyData): Promise<void> {
  await db.executeQuery(CompiledQuery.raw(statement.compile(db).sql, [data]));
}

/** The part of node-postgres' connection (its protocol writer) a COPY submittable uses. */
export interface PgConnection {
  stream?: { cork?(): void; uncork?(): void };
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
}

/** COPY's input as a Buffer, without copying bytes already in memory. */
export function copyBytes(data: CopyData): Buffer {
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
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
 *
 * The data follows the statement at once, without waiting for the server's CopyInResponse:
 * one round trip instead of two. The protocol allows it: a server that could not start the
 * COPY (an unknown column, a missing table) answers its error and drops the CopyData and
 * CopyDone that arrive after it (copy-from.int.spec.ts holds the connection usable after one).
 */
export class CopyFromStdin {
  readonly result: Promise<CopyResult>;
  private resolve!: (r: CopyResult) => void;
  private reject!: (err: unknown) => void;
  private rowCount = 0;
  private settled = false;

  constructor(
    readonly text: string,
    private readonly data: CopyData,
  ) {
    this.result = new Promise<CopyResult>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: PgConnection): void {
    // Corked, as node-postgres corks its own multi-message queries: three messages, one write.
    connection.stream?.cork?.();
    try {
      connection.query(this.text);
      connection.sendCopyFromChunk(copyBytes(this.data));
      connection.endCopyFrom();
    } finally {
      connection.stream?.uncork?.();
    }
  }

  /** The data went with the statement (`submit`). */
  handleCopyInResponse(): void {}

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
