import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { EventStoreTables as DB } from './tables.js';

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
import { AppendBatcher } from './append-batcher.js';
import { WakeSignal } from './wake-signal.js';
import { COLUMNS, eventTables, OtherDatabaseXids, readAllFrom, readHorizon, toRecorded, type EventRow } from './postgres-reads.js';
import { appendStatement, batchAppendStatement, writtenRow, type AppendRow, type StreamAppend } from './postgres-appends.js';
import { chainAppend, GENESIS, StreamHeads } from './chain.js';

export { OtherDatabaseXids, readAllFrom };

/** How long the store's reads reuse the list of other databases' transactions (`OtherDatabaseXids`). */
const OTHER_XIDS_MAX_AGE_MS = 100;

/** Group commit (`AppendBatcher`): appends in one statement at most, batches in flight before appends wait, and the largest append that waits. */
const MAX_APPEND_BATCH = 64;
const APPENDS_IN_FLIGHT = 2;
const MAX_BATCHED_EVENTS = 16;

/** Thrown inside the append transaction to roll it back when the expectation fails. */
class ExpectationFailed extends Error {}

/** How often an append with `any` or `stream_exists` reads the head again after another writer moved it. */
const HEAD_RETRIES = 200;

/** A stream's head as an append chains from it: its revision (-1n: no stream) and hash (null: not chained). */
interface Head {
  revision: bigint;
  hash: string | null;
}

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
  /** Heads this store wrote or read lately: an append with a known expected revision chains without asking first. */
  readonly heads = new StreamHeads();

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
    const exact = typeof expectedRevision === 'bigint';
    // The previous hash: GENESIS for a new stream; for a known revision the remembered head,
    // else the stream's row (one read, only then). `any` and `stream_exists` append at the
    // head they found, and find it again if another writer moved it first.
    let head: Head | null =
      expectedRevision === 'no_stream' ? { revision: -1n, hash: GENESIS } : this.knownHead(streamId, expectedRevision);
    for (let attempt = 0; ; attempt++) {
      head ??= await this.readHead(streamId);
      const expected: ExpectedRevision = expectedRevision === 'no_stream' ? 'no_stream' : head.revision < 0n ? 'no_stream' : head.revision;
      const mismatch = (exact && head.revision !== expectedRevision) || (expectedRevision === 'stream_exists' && head.revision < 0n);
      const append: StreamAppend = {
        streamId,
        events,
        // A head that cannot meet the expectation still goes to the statement: it finds the
        // expectation failed, and a retry of stored events is told apart there.
        expected: mismatch ? expectedRevision : expected,
        chained: head.hash === null ? null : chainAppend(streamId, head.revision + 1n, head.hash, events),
        prevHash: head.hash === GENESIS && head.revision < 0n ? null : head.hash,
      };
      try {
        return await this.appendAt(append, expectedRevision);
      } catch (err) {
        if (!(err instanceof WrongExpectedVersionError) || mismatch || attempt >= HEAD_RETRIES) throw err;
        // Many writers on one stream with `any`: each lost round means another writer won, so
        // the stream moves; a short random pause keeps one writer from losing every round.
        if (attempt >= 2) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, attempt * 5)));
        // The head moved (another writer), or its hash was not the one remembered (a
        // backfill chained the stream since): read it and try again, if it still meets the
        // expectation.
        this.heads.forget(streamId);
        const fresh = await this.readHead(streamId);
        const sameRevision = exact && fresh.revision === head.revision && fresh.hash !== head.hash;
        if (exact && !sameRevision) throw err;
        if (!exact && expectedRevision === 'no_stream') throw err;
        head = fresh;
      }
    }
  }

  private knownHead(streamId: string, expected: ExpectedRevision): Head | null {
    const known = this.heads.get(streamId);
    if (!known) return null;
    return typeof expected !== 'bigint' || known.revision === expected ? known : null;
  }

  /** The stream's revision and head hash from its row. */
  private async readHead(streamId: string): Promise<Head> {
    const row = await this.db.selectFrom('streams').select(['revision', 'head_hash']).where('stream_id', '=', streamId).executeTakeFirst();
    if (!row) return { revision: -1n, hash: GENESIS };
    return { revision: BigInt(row.revision), hash: row.head_hash ? Buffer.from(row.head_hash).toString('hex') : null };
  }

  private async appendAt(append: StreamAppend, expectedRevision: ExpectedRevision): Promise<AppendResult> {
    const { streamId, events } = append;
    let result: AppendResult;
    try {
      const done = (row: AppendRow | undefined) => {
        if (!row) throw new ExpectationFailed();
        return {
          nextExpectedRevision: BigInt(row.last_revision),
          position: { commit: BigInt(row.tx), prepare: BigInt(row.last_position) },
        };
      };
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
    this.heads.set(streamId, result.nextExpectedRevision, append.chained ? append.chained[append.chained.length - 1]!.hash : null);
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
    const events = rows.map(toRecorded);
    const last = events[events.length - 1];
    // A read to the stream's end tells the head an append after it chains from.
    if (last && events.length < limit) this.heads.set(streamId, last.revision, last.hash);
    return events;
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
    return this.lastPosition(sql`tx_id < ${readHorizon(await this.otherXids.get())}`);
  }

  /** No horizon here: every committed event is in the snapshot, whatever is still open. */
  committedHead(): Promise<Position | null> {
    return this.lastPosition(sql`true`);
  }

  /** The position of the log's last event that `where` keeps. */
  private async lastPosition(where: RawBuilder<unknown>): Promise<Position | null> {
    const { rows } = await sql<{ tx: string; global_position: string }>`
      select tx_id::text as tx, global_position from events where ${where}
      order by tx_id desc, global_position desc limit 1`.execute(this.db);
    const row = rows[0];
    return row ? { commit: BigInt(row.tx), prepare: BigInt(row.global_position) } : null;
  }

  async close(): Promise<void> {
    this.wake.wakeAll();
  }
}
