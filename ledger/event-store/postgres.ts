import { sql, type Kysely, type Transaction } from 'kysely';
import type { EventStoreTables as DB } from './tables.js';

/**
 * The app's database has many more tables than the event store's: the store takes any Kysely
 * whose database includes its own, and works on the view of just those.
 */
type WithEventTables<T extends DB> = Kysely<T> | Transaction<T>;
const eventTables = <T extends DB>(db: WithEventTables<T>) => db as unknown as Kysely<DB> | Transaction<DB>;
import {
  DuplicateEventIdError,
  WrongExpectedVersionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type LiveFeedStatus,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  START,
} from './port.js';
import { pollingSubscription } from './polling-subscription.js';
import { upcast } from './upcast.js';
import { AppendBatcher } from './append-batcher.js';
import { WakeSignal } from './wake-signal.js';

interface EventRow {
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
}

const COLUMNS = sql`global_position, event_id, stream_id, stream_revision, event_type, event_version,
  data, metadata::text as metadata, tx_id::text as tx, floor(extract(epoch from recorded_at) * 1000)::int8 as recorded_ms`;

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
async function otherDatabaseXids(db: Kysely<DB> | Transaction<DB>): Promise<string[]> {
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
const readHorizon = (otherXids: string[]) => sql`coalesce(
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
  }

  get metadata(): RecordedEvent['metadata'] {
    return (this.#metadata ??= JSON.parse(this.#metadataText) as RecordedEvent['metadata']);
  }

  set metadata(value: RecordedEvent['metadata']) {
    this.#metadata = value;
  }
}

function toRecorded(row: EventRow): RecordedEvent {
  return new StoredEvent(row);
}

/** How long the store's reads reuse the list of other databases' transactions (`OtherDatabaseXids`). */
const OTHER_XIDS_MAX_AGE_MS = 100;

/** Group commit (`AppendBatcher`): appends in one statement at most, batches in flight before appends wait, and the largest append that waits. */
const MAX_APPEND_BATCH = 64;
const APPENDS_IN_FLIGHT = 2;
const MAX_BATCHED_EVENTS = 16;

interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
}

/** What an append statement answers for one stream: its transaction, last position and revision. */
interface AppendRow {
  tx: string;
  last_position: string;
  last_revision: string;
}

/** What `appendStatement` answers: no transaction when the expectation failed (nothing inserted). */
type AppendStatementRow = Omit<AppendRow, 'tx'> & { tx: string | null };

/** The row of `appendStatement`; none when the expectation failed. */
function writtenRow(row: AppendStatementRow | undefined): AppendRow | undefined {
  return row && row.tx !== null ? (row as AppendRow) : undefined;
}

/** Thrown inside the append transaction to roll it back when the expectation fails. */
class ExpectationFailed extends Error {}

const UNIQUE_VIOLATION = '23505';

/**
 * Reading the global log without skipping (DESIGN.md decision 2).
 *
 * `global_position` comes from an identity when the row is inserted, not when it
 * commits. Two writers A and B take positions 10 and 11; B commits first; a reader that
 * asks for `position > last` reads 11, remembers 11, and never sees 10 once A commits.
 *
 * Instead every row carries its writer's transaction id, and readers order by
 * (tx_id, global_position) and read only rows whose transaction is older than the oldest
 * transaction still running (`readHorizon`). Every transaction below that horizon
 * has ended, so no row can later appear before a position already handed out.
 */
export class PostgresEventStore<T extends DB = DB> implements EventStore {
  readonly name = 'postgres' as const;
  readonly wake = new WakeSignal();
  private readonly otherXids: OtherDatabaseXids;
  private readonly batcher: AppendBatcher<StreamAppend, AppendRow>;

  private readonly db: Kysely<DB>;

  constructor(
    tables: Kysely<T>,
    private readonly options: {
      idlePollMs?: number;
      /** Test hook: runs inside the append transaction after the insert, before commit. */
      beforeCommit?: (streamId: string) => Promise<void>;
      /** How long reads reuse the list of other databases' transactions (`OtherDatabaseXids`); default 100 ms. */
      otherXidsMaxAgeMs?: number;
    } = {},
  ) {
    const db = eventTables(tables) as Kysely<DB>;
    this.db = db;
    this.otherXids = new OtherDatabaseXids(db, options.otherXidsMaxAgeMs ?? OTHER_XIDS_MAX_AGE_MS);
    this.batcher = new AppendBatcher<StreamAppend, AppendRow>(
      async (appends) => {
        if (appends.length === 1) {
          const row = writtenRow((await appendStatement(appends[0]!).execute(db)).rows[0]);
          return new Map(row ? [[appends[0]!.streamId, row]] : []);
        }
        const { rows } = await batchAppendStatement(appends).execute(db);
        return new Map(rows.map((r) => [r.stream_id, r]));
      },
      { maxInFlight: APPENDS_IN_FLIGHT, maxBatch: MAX_APPEND_BATCH, maxBatchedEvents: MAX_BATCHED_EVENTS },
    );
  }

  async append(streamId: string, events: NewEvent[], { expectedRevision }: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    let result: AppendResult;
    try {
      const done = (row: AppendRow | undefined) => {
        if (!row) throw new ExpectationFailed();
        return {
          nextExpectedRevision: BigInt(row.last_revision),
          position: { commit: BigInt(row.tx), prepare: BigInt(row.last_position) },
        };
      };
      const append: StreamAppend = { streamId, events, expected: expectedRevision };
      // One statement in autocommit, alone or with other streams' appends: the stream's
      // revision and the rows move together or not at all. The test hook runs the
      // statement alone, in a transaction it holds open.
      result = this.options.beforeCommit
        ? await this.db.transaction().execute(async (trx) => {
            const { rows } = await appendStatement(append).execute(trx);
            const r = done(writtenRow(rows[0]));
            await this.options.beforeCommit!(streamId);
            return r;
          })
        : done(await this.batcher.run(append));
    } catch (err) {
      const duplicateId =
        (err as { code?: string; constraint?: string }).code === UNIQUE_VIOLATION &&
        String((err as { constraint?: string }).constraint ?? (err as Error).message).includes('event_id');
      if (!(err instanceof ExpectationFailed) && !duplicateId) throw err;
      const retry = await this.findRetry(streamId, events);
      if (retry) return retry;
      if (duplicateId) throw new DuplicateEventIdError(events.map((e) => e.eventId));
      throw new WrongExpectedVersionError(streamId, expectedRevision, await this.currentRevision(streamId));
    }
    this.wake.notify(result.position);
    return result;
  }

  /** An append whose event ids are all stored already, in this stream and order, is a retry. */
  private async findRetry(streamId: string, events: NewEvent[]): Promise<AppendResult | null> {
    const ids = events.map((e) => e.eventId);
    const rows = await this.db
      .selectFrom('events')
      .select(['event_id', 'stream_id', 'stream_revision', 'global_position', sql<string>`tx_id::text`.as('tx')])
      .where('event_id', 'in', ids)
      .orderBy('stream_revision')
      .execute();
    if (rows.length === 0) return null;
    const consistent =
      rows.length === ids.length &&
      rows.every(
        (r, i) =>
          r.stream_id === streamId &&
          r.event_id === ids[i] &&
          (i === 0 || BigInt(r.stream_revision) === BigInt(rows[i - 1]!.stream_revision) + 1n),
      );
    if (!consistent) throw new DuplicateEventIdError(rows.map((r) => r.event_id));
    const last = rows[rows.length - 1]!;
    return {
      nextExpectedRevision: BigInt(last.stream_revision),
      position: { commit: BigInt(last.tx), prepare: BigInt(last.global_position) },
      alreadyStored: true,
    };
  }

  private async currentRevision(streamId: string): Promise<bigint | 'no_stream'> {
    const row = await this.db.selectFrom('streams').select('revision').where('stream_id', '=', streamId).executeTakeFirst();
    return row ? BigInt(row.revision) : 'no_stream';
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const from = options.fromRevision ?? 0n;
    const limit = options.maxCount ?? 1_000_000;
    const { rows } = await sql<EventRow>`
      select ${COLUMNS} from events
      where stream_id = ${streamId} and stream_revision >= ${String(from)}
      order by stream_revision limit ${limit}`.execute(this.db);
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return readAllFrom(this.db, options.after ?? START, options.maxCount ?? 1000, this.otherXids);
  }

  /**
   * Live subscribers (one per read model) mostly stand at the same position and are woken
   * together: the same page is read once for all of them while that read is in flight.
   */
  private readonly inflight = new Map<string, Promise<RecordedEvent[]>>();
  private sharedRead(after: Position, max: number): Promise<RecordedEvent[]> {
    const key = `${after.commit}/${after.prepare}/${max}`;
    let page = this.inflight.get(key);
    if (!page) {
      page = readAllFrom(this.db, after, max, this.otherXids).finally(() => this.inflight.delete(key));
      this.inflight.set(key, page);
    }
    return page.then((events) => events.slice());
  }

  subscribeAll(options: { after?: Position } = {}) {
    return pollingSubscription({
      after: options.after,
      read: (after, max) => this.sharedRead(after, max),
      wake: this.wake,
      idleMs: this.options.idlePollMs,
    });
  }

  /** The live feed polls the events table over the app's own pool: no connection of its own to lose. */
  status(): LiveFeedStatus {
    return { connected: true, resubscribing: false };
  }

  async headPosition(): Promise<Position | null> {
    const horizon = readHorizon(await this.otherXids.get());
    const { rows } = await sql<{ tx: string; global_position: string }>`
      select tx_id::text as tx, global_position from events
      where tx_id < ${horizon}
      order by tx_id desc, global_position desc limit 1`.execute(this.db);
    const row = rows[0];
    return row ? { commit: BigInt(row.tx), prepare: BigInt(row.global_position) } : null;
  }

  async close(): Promise<void> {
    this.wake.wakeAll();
  }
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

/** An event as the append statements read it: its append (`a`, from 1), its place in that append (`k`, from 1), its columns. */
interface EventRecord {
  a: number;
  k: number;
  event_id: string;
  event_type: string;
  event_version: number;
  data: unknown;
  metadata: unknown;
}

function eventRecord(a: number, k: number, e: NewEvent): EventRecord {
  return { a, k, event_id: e.eventId, event_type: e.type, event_version: e.version, data: e.data, metadata: e.metadata };
}

/**
 * The events of an append statement as rows `e`, sent as ONE JSON document: one
 * JSON.stringify for them all, where arrays of JSON texts (`jsonb[]`) made node-postgres
 * escape every quote of every event into an array literal, and PostgreSQL undo it.
 */
function eventRecords(records: EventRecord[]) {
  return sql`jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
    as e(a int, k int, event_id uuid, event_type text, event_version int, data jsonb, metadata jsonb)`;
}

/**
 * The whole append as one statement: move the stream's revision on by the number of events
 * if the expectation holds (no row when it does not), then insert the events numbered from
 * there. Answers the writer's transaction id, the last position and the last revision.
 */
function appendStatement({ streamId, events, expected }: StreamAppend) {
  const count = events.length;
  let bump;
  if (expected === 'no_stream') {
    bump = sql`insert into streams (stream_id, revision, last_tx) values (${streamId}, ${count - 1}, pg_current_xact_id())
      on conflict (stream_id) do nothing returning revision, last_tx`;
  } else if (expected === 'any') {
    bump = sql`insert into streams (stream_id, revision, last_tx) values (${streamId}, ${count - 1}, pg_current_xact_id())
      on conflict (stream_id) do update set revision = streams.revision + ${count}, updated_at = now(),
        last_tx = greatest(coalesce(streams.last_tx, '0'::xid8), pg_current_xact_id())
      returning revision, last_tx`;
  } else if (expected === 'stream_exists') {
    bump = sql`update streams set revision = revision + ${count}, updated_at = now(), last_tx = greatest(coalesce(streams.last_tx, '0'::xid8), pg_current_xact_id())
      where stream_id = ${streamId} returning revision, last_tx`;
  } else {
    bump = sql`update streams set revision = revision + ${count}, updated_at = now(), last_tx = greatest(coalesce(streams.last_tx, '0'::xid8), pg_current_xact_id())
      where stream_id = ${streamId} and revision = ${expected.toString()} returning revision, last_tx`;
  }
  return sql<AppendStatementRow>`
    with bump as (${bump}),
    inserted as (
      insert into events (event_id, stream_id, stream_revision, event_type, event_version, data, metadata, tx_id)
      select e.event_id, ${streamId}, bump.revision - ${count} + e.k, e.event_type, e.event_version, e.data, e.metadata, bump.last_tx
      from bump, ${eventRecords(events.map((e, i) => eventRecord(0, i + 1, e)))}
      order by e.k
      returning tx_id, global_position, stream_revision
    )
    select max(tx_id::text) as tx, max(global_position)::text as last_position, max(stream_revision)::text as last_revision from inserted`;
}

/**
 * Several appends to distinct streams in one statement (group commit, `AppendBatcher`): each
 * stream's revision moves as `appendStatement` moves it, by its own expectation, and its events
 * are inserted after it, in order. A stream whose expectation fails moves nothing, inserts
 * nothing and has no row in the answer; the others are written. An append alone keeps
 * `appendStatement`: measured in quick runs, this statement for one append made the 100-event
 * appends 5.4x to 5.6x plain inserts (5.8x to 6.4x) and four handlers racing for one wallet
 * 729 to 745 withdrawals/s (877 to 956).
 */
function batchAppendStatement(appends: StreamAppend[]) {
  const kinds = appends.map((a) => (typeof a.expected === 'bigint' ? 'exact' : a.expected));
  const expected = appends.map((a) => (typeof a.expected === 'bigint' ? a.expected.toString() : null));
  const records: EventRecord[] = [];
  appends.forEach((a, i) => a.events.forEach((e, k) => records.push(eventRecord(i + 1, k + 1, e))));
  return sql<AppendRow & { stream_id: string }>`
    with input as (
      select * from unnest(${appends.map((a) => a.streamId)}::text[], ${kinds}::text[], ${expected}::bigint[], ${appends.map((a) => a.events.length)}::int[])
        with ordinality as i(stream_id, kind, expected, count, a)
    ),
    created as (
      insert into streams (stream_id, revision, last_tx)
      select stream_id, count - 1, pg_current_xact_id() from input where kind = 'no_stream'
      on conflict (stream_id) do nothing returning stream_id, revision, last_tx
    ),
    upserted as (
      insert into streams (stream_id, revision, last_tx)
      select stream_id, count - 1, pg_current_xact_id() from input where kind = 'any'
      on conflict (stream_id) do update set revision = streams.revision + excluded.revision + 1, updated_at = now(),
        last_tx = greatest(coalesce(streams.last_tx, '0'::xid8), pg_current_xact_id())
      returning stream_id, revision, last_tx
    ),
    moved as (
      update streams s set revision = s.revision + i.count, updated_at = now(), last_tx = greatest(coalesce(s.last_tx, '0'::xid8), pg_current_xact_id())
      from input i
      where s.stream_id = i.stream_id and (i.kind = 'stream_exists' or (i.kind = 'exact' and s.revision = i.expected))
      returning s.stream_id, s.revision, s.last_tx
    ),
    bump as (select * from created union all select * from upserted union all select * from moved),
    inserted as (
      insert into events (event_id, stream_id, stream_revision, event_type, event_version, data, metadata, tx_id)
      select e.event_id, i.stream_id, b.revision - i.count + e.k, e.event_type, e.event_version, e.data, e.metadata, b.last_tx
      from ${eventRecords(records)}
      join input i on i.a = e.a
      join bump b on b.stream_id = i.stream_id
      order by e.a, e.k
      returning stream_id, tx_id, global_position, stream_revision
    )
    select stream_id, max(tx_id::text) as tx, max(global_position)::text as last_position, max(stream_revision)::text as last_revision
    from inserted group by stream_id`;
}
