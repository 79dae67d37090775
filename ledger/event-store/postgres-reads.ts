import { sql, type Kysely, type Transaction } from 'kysely';
import type { EventStoreTables as DB } from './tables.js';
import type { Position, RecordedEvent } from './port.js';
import { upcast } from './upcast.js';

/**
 * Reading the PostgreSQL event log in commit order: the rows as they are stored, the read
 * horizon (the oldest transaction still running here), and one page of the log after a position.
 */

/**
 * The app's database has many more tables than the event store's: the store takes any Kysely
 * whose database includes its own, and works on the view of just those.
 */
export type WithEventTables<T extends DB> = Kysely<T> | Transaction<T>;
export const eventTables = <T extends DB>(db: WithEventTables<T>) => db as unknown as Kysely<DB> | Transaction<DB>;
export interface EventRow {
  global_position: string;
  event_id: string;
  stream_id: string;
  stream_revision: string;
  event_type: string;
  event_version: number;
  data: unknown;
  /** As text: parsed on first use (no projection reads it, so replay skips that work). */
  metadata: string;
  tx: string;
  /** Milliseconds since the epoch, truncated as a Date would truncate the microseconds. */
  recorded_ms: string;
  /** The chain hash (hex), null before the chain. */
  hash: string | null;
}

export const COLUMNS = sql`global_position, event_id, stream_id, stream_revision, event_type, event_version,
  data, metadata::text as metadata, tx_id::text as tx, floor(extract(epoch from recorded_at) * 1000)::int8 as recorded_ms,
  encode(hash, 'hex') as hash`;

/**
 * Transaction ids that pg_stat_activity shows running in other databases (transaction ids
 * are cluster-wide, and another database's long transaction must not hold this log back).
 *
 * Read in a statement of its own, before the statement that reads the log takes its
 * snapshot. Read in the same statement, the list came after the snapshot: a transaction of
 * another database that was running in the snapshot but ended before the list was read could
 * not be told apart from one of this database, so it counted, and the horizon fell back below
 * events already handed out (headPosition answered null after a readAll had returned events).
 * A transaction running in a snapshot taken after this list, and older than anything read
 * before, was running when the list was read, so it is in the list.
 *
 * Within a transaction PostgreSQL keeps the first pg_stat_activity it read; it is cleared
 * first so the list is as new as the statement that follows. (In a REPEATABLE READ
 * transaction the snapshot is older than the list: the horizon still errs early, never late.)
 */
export async function otherDatabaseXids(db: Kysely<DB> | Transaction<DB>): Promise<string[]> {
  if (db.isTransaction) await sql`select pg_stat_clear_snapshot()`.execute(db);
  const { rows } = await sql<{ xids: string[] }>`
    select coalesce(array_agg(backend_xid::text), '{}') as xids from pg_stat_activity
    where datname <> current_database() and backend_xid is not null`.execute(db);
  return rows[0]?.xids ?? [];
}

/**
 * The newest list of other databases' transactions (`otherDatabaseXids`), reused by the
 * store's reads for up to `maxAgeMs` after it was asked for. Reading pg_stat_activity
 * takes a lock on every backend's entry that commits take too; under load it was the slowest
 * statement of the live projector's cycle (8 ms at the median, against 5 ms for the page).
 *
 * An older list is still one read before the snapshot, so every argument above holds:
 * a transaction in it belongs to another database for good (ids are not reused), and one
 * missing from it counts, so the horizon errs early, never late. Lists are fetched one at a
 * time and each read takes the newest, so a reader's successive reads use lists no older
 * than the last, and its horizon does not fall back. The cost: a transaction of another
 * database that began after the list was read holds this log back until it ends or the
 * list is renewed, at most `maxAgeMs` later.
 */
export class OtherDatabaseXids {
  private list: string[] | null = null;
  /** When the fetch that produced `list` was sent. */
  private askedAt = 0;
  private fetching: Promise<string[]> | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly maxAgeMs: number,
  ) {}

  get(): Promise<string[]> | string[] {
    if (this.list && performance.now() - this.askedAt < this.maxAgeMs) return this.list;
    return (this.fetching ??= (async () => {
      const askedAt = performance.now();
      try {
        const list = await otherDatabaseXids(this.db);
        this.list = list;
        this.askedAt = askedAt;
        return list;
      } finally {
        this.fetching = null;
      }
    })());
  }
}

/**
 * The oldest transaction that may still write to this database's log: the oldest one still
 * running in the snapshot, leaving out those of other databases (`otherDatabaseXids`, read
 * beforehand). A running transaction not in that list counts, so the horizon errs early.
 * With nothing running it is the snapshot's xmax.
 */
export const readHorizon = (otherXids: string[]) => sql`coalesce(
  (select min(x) from pg_snapshot_xip(pg_current_snapshot()) as x
   where (x::text::bigint % 4294967296) <> all(${otherXids}::bigint[])),
  pg_snapshot_xmax(pg_current_snapshot()))`;

/**
 * A row of the log as a RecordedEvent. A class, not an object literal with a getter: the
 * literal made two closures per event and took three times as long to build, and a replay
 * builds one per event. The metadata is parsed on first use (no projection reads it). It is
 * an accessor of the prototype, which a spread would not copy: `upcast` runs on the row,
 * before the event is built.
 */
class StoredEvent implements RecordedEvent {
  readonly eventId: string;
  readonly streamId: string;
  readonly revision: bigint;
  readonly type: string;
  readonly version: number;
  readonly data: unknown;
  readonly position: Position;
  readonly recordedAt: Date;
  readonly hash: string | null;
  readonly stored?: { version: number; data: unknown };
  #metadataText: string;
  #metadata: RecordedEvent['metadata'] | undefined;

  constructor(row: EventRow) {
    const current = upcast({ type: row.event_type, version: row.event_version, data: row.data });
    this.eventId = row.event_id;
    this.streamId = row.stream_id;
    this.revision = BigInt(row.stream_revision);
    this.type = current.type;
    this.version = current.version;
    this.data = current.data;
    this.position = { commit: BigInt(row.tx), prepare: BigInt(row.global_position) };
    // A number is turned into a Date far faster than the timestamp's text is parsed.
    this.recordedAt = new Date(Number(row.recorded_ms));
    this.#metadataText = row.metadata;
    this.hash = row.hash;
    if (current.version !== row.event_version) this.stored = { version: row.event_version, data: row.data };
  }

  get metadata(): RecordedEvent['metadata'] {
    return (this.#metadata ??= JSON.parse(this.#metadataText) as RecordedEvent['metadata']);
  }

  set metadata(value: RecordedEvent['metadata']) {
    this.#metadata = value;
  }
}

export function toRecorded(row: EventRow): RecordedEvent {
  return new StoredEvent(row);
}

/**
 * Pages the log in commit order; usable inside a transaction (`db` may be a `trx`), where
 * the list of other databases' transactions is always read anew (`otherXids` is for reads
 * outside one).
 */
export async function readAllFrom<T extends DB>(
  tables: WithEventTables<T>,
  after: Position,
  maxCount: number,
  otherXids?: OtherDatabaseXids,
): Promise<RecordedEvent[]> {
  const db = eventTables(tables);
  const horizon = readHorizon(await (otherXids && !db.isTransaction ? otherXids.get() : otherDatabaseXids(db)));
  const { rows } = await sql<EventRow>`
    select ${COLUMNS} from events
    where (tx_id, global_position) > (${after.commit.toString()}::text::xid8, ${after.prepare.toString()}::bigint)
      and tx_id < ${horizon}
    order by tx_id, global_position
    limit ${maxCount}`.execute(db);
  return rows.map(toRecorded);
}
