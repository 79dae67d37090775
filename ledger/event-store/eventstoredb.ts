import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START as ESDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type JSONType,
  type Position as EsdbPosition,
} from '@eventstore/db-client';
import {
  comparePositions,
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
  type Subscription,
} from './port.js';
import {
  answeredForStoredEvents,
  fromAll,
  isSystemType,
  portError,
  toExpectedRevision,
  toRecorded,
  validPosition,
} from './eventstoredb-mapping.js';
import { CHAIN_HASH_KEY } from './eventstoredb-mapping.js';
import { chainAppend, GENESIS, StreamHeads } from './chain.js';

export { answeredForStoredEvents };

/** Events fetched from the server per page of `readAll` / `headPosition`. */
const MIN_PAGE = 64;
const MAX_PAGE = 4096;

/** A live subscription pauses the server stream when this many events wait unread... */
const QUEUE_HIGH_WATER = 4096;
/** ...and resumes it once the reader has brought the queue down to this. */
const QUEUE_LOW_WATER = 1024;

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0]!;

/** A connection string the EventStoreDB client refuses (a port that is not a number, an unknown scheme, `tls=maybe`). */
export class EventStoreUrlError extends Error {}

/**
 * The EventStoreDB adapter (DESIGN.md decision 1), chosen by `EVENTSTORE_URL`.
 * Stream revisions, global positions, optimistic concurrency and idempotent re-append
 * by event id are the server's own; this maps them onto the port. The schema version of
 * an event travels in its metadata as `schemaVersion`.
 */
export class EventStoreDbEventStore implements EventStore {
  readonly name = 'eventstoredb' as const;
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<Subscription>();
  private closed = false;
  /** Live subscriptions the server has confirmed and that have not failed or closed since. */
  private confirmed = 0;
  /** Why the last live subscription failed; cleared when one is confirmed again. */
  private lastFailure: string | undefined;

  /** Throws `EventStoreUrlError` for a connection string the client cannot use. */
  constructor(connectionString: string) {
    try {
      this.client = EventStoreDBClient.connectionString(connectionString);
    } catch (err) {
      // The client's parser names the first thing it could not read, with the position.
      throw new EventStoreUrlError(`the EventStoreDB client cannot use it: ${String((err as Error).message).split('\n')[0]}`);
    }
  }

  /** Heads this adapter wrote or read lately (chain.ts): an append with a known revision chains without reading first. */
  readonly heads = new StreamHeads();

  async append(streamId: string, events: NewEvent[], { expectedRevision }: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const exact = typeof expectedRevision === 'bigint';
    // The previous hash travels in each event's metadata (`chainHash`). A new stream chains
    // from GENESIS; a known revision from the remembered head, else from the stream's last
    // event (one read). `any` and `stream_exists` go to the server as they are (its
    // idempotent re-append by event id needs them), chained from the head read just before:
    // the app itself appends with exact revisions (docs/decisions.md).
    let head: { revision: bigint; hash: string | null } | undefined;
    if (expectedRevision === 'no_stream') head = { revision: -1n, hash: GENESIS };
    else if (exact) {
      const known = this.heads.get(streamId);
      if (known && known.revision === expectedRevision) head = known;
    }
    head ??= await this.readHead(streamId);
    const hashes = head.hash === null ? null : chainAppend(streamId, head.revision + 1n, head.hash, events).map((c) => c.hash);
    try {
      return await this.appendAt(streamId, events, expectedRevision, hashes);
    } catch (err) {
      this.heads.forget(streamId);
      throw err;
    }
  }

  /** The stream's last revision and its chain hash (null: an event from before the chain), or -1n for no stream. */
  private async readHead(streamId: string): Promise<{ revision: bigint; hash: string | null }> {
    try {
      for await (const resolved of this.client.readStream(streamId, { fromRevision: END, maxCount: 1, direction: BACKWARDS })) {
        if (resolved.event) {
          const e = toRecorded(resolved.event, resolved.commitPosition);
          return { revision: e.revision, hash: e.hash ?? null };
        }
      }
    } catch (err) {
      if (err instanceof StreamNotFoundError) return { revision: -1n, hash: GENESIS };
      throw portError(err);
    }
    return { revision: -1n, hash: GENESIS };
  }

  private async appendAt(streamId: string, events: NewEvent[], expected: ExpectedRevision, hashes: string[] | null): Promise<AppendResult> {
    const data = events.map((e, i) =>
      jsonEvent({
        id: e.eventId,
        type: e.type,
        data: e.data as JSONType,
        metadata: { ...e.metadata, schemaVersion: e.version, ...(hashes ? { [CHAIN_HASH_KEY]: hashes[i]! } : {}) },
      }),
    );
    let result;
    try {
      result = await this.client.appendToStream(streamId, data, { expectedRevision: toExpectedRevision(expected) });
    } catch (err) {
      if (err instanceof EsdbWrongExpectedVersionError) {
        throw new WrongExpectedVersionError(streamId, expected, err.actualVersion);
      }
      throw portError(err);
    }
    const nextExpectedRevision = result.nextExpectedRevision;
    // For one event the server answers with its position. For several it answers with
    // the commit position, which is not the last event's, and for a re-append it found
    // already stored it may answer with none: read the last event back instead.
    const answered = validPosition(result.position);
    const position = events.length === 1 && answered ? answered : ((await this.positionOf(streamId, nextExpectedRevision)) ?? answered);
    if (!position) throw new Error(`no log position for ${streamId}@${nextExpectedRevision}`);
    if (answeredForStoredEvents(expected, events.length, result)) return { nextExpectedRevision, position, alreadyStored: true };
    this.heads.set(streamId, nextExpectedRevision, hashes ? hashes[hashes.length - 1]! : null);
    return { nextExpectedRevision, position };
  }

  private async positionOf(streamId: string, revision: bigint): Promise<Position | undefined> {
    const read = this.client.readStream(streamId, { fromRevision: revision, maxCount: 1, direction: FORWARDS });
    for await (const resolved of read) {
      if (resolved.event?.revision === revision) return validPosition(resolved.event.position);
    }
    return undefined;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    if (options.maxCount !== undefined && options.maxCount <= 0) return out;
    try {
      const read = this.client.readStream(streamId, {
        fromRevision: options.fromRevision ?? ESDB_START,
        ...(options.maxCount !== undefined ? { maxCount: options.maxCount } : {}),
        direction: FORWARDS,
      });
      for await (const resolved of read) {
        if (resolved.event) out.push(toRecorded(resolved.event, resolved.commitPosition));
      }
      const last = out[out.length - 1];
      if (last && (options.maxCount === undefined || out.length < options.maxCount)) this.heads.set(streamId, last.revision, last.hash);
    } catch (err) {
      if (err instanceof StreamNotFoundError) return [];
      throw portError(err);
    }
    return out;
  }

  readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.readAllPages(options).catch((err: unknown) => {
      throw portError(err);
    });
  }

  private async readAllPages(options: ReadAllOptions): Promise<RecordedEvent[]> {
    const maxCount = options.maxCount ?? 1000;
    const out: RecordedEvent[] = [];
    if (maxCount <= 0) return out;
    const pageSize = Math.min(Math.max(maxCount + 1, MIN_PAGE), MAX_PAGE);
    let from: Position | undefined = options.after;
    // Everything at or before `skipUpTo` has been looked at (or is excluded by `after`).
    let skipUpTo: Position | undefined = options.after;
    for (;;) {
      let raw = 0;
      let lastRaw: Position | undefined;
      const read = this.client.readAll({ fromPosition: from ?? ESDB_START, maxCount: pageSize, direction: FORWARDS });
      for await (const resolved of read) {
        raw++;
        if (resolved.event) lastRaw = resolved.event.position;
        const event = fromAll(resolved, skipUpTo);
        if (event) {
          out.push(event);
          if (out.length >= maxCount) {
            await read.cancel();
            return out;
          }
        }
      }
      if (raw < pageSize || !lastRaw) return out;
      from = lastRaw;
      skipUpTo = lastRaw;
    }
  }

  subscribeAll(options: { after?: Position } = {}): Subscription {
    const after = options.after;
    const queue: RecordedEvent[] = [];
    let waiters: Array<() => void> = [];
    let failure: unknown;
    let closed = false;
    let paused = false;
    let confirmed = false;
    const unconfirm = () => {
      if (confirmed) this.confirmed--;
      confirmed = false;
    };

    const wake = () => {
      const ws = waiters;
      waiters = [];
      for (const w of ws) w();
    };

    const stream: AllStreamSubscription = this.client.subscribeToAll({
      fromPosition: after ?? ESDB_START,
      filter: excludeSystemEvents(),
    });
    const confirm = () => {
      if (closed || confirmed || failure !== undefined) return;
      confirmed = true;
      this.confirmed++;
      this.lastFailure = undefined;
    };
    stream.on('confirmation', confirm);
    stream.on('data', (resolved: AllStreamResolvedEvent) => {
      if (closed) return;
      confirm();
      const event = fromAll(resolved, after);
      if (!event) return;
      queue.push(event);
      if (!paused && queue.length >= QUEUE_HIGH_WATER) {
        paused = true;
        stream.pause();
      }
      wake();
    });
    stream.on('error', (err: unknown) => {
      if (closed) return;
      failure ??= err;
      this.lastFailure = firstLine(err);
      unconfirm();
      wake();
    });
    // The server never ends a subscription to $all by itself: if it does (a restart, a
    // dropped connection), say so rather than look like a closed subscription.
    const stopped = () => {
      if (!closed) {
        failure ??= new Error('the subscription to $all ended unexpectedly');
        this.lastFailure ??= firstLine(failure);
        unconfirm();
      }
      wake();
    };
    stream.on('end', stopped);
    stream.on('close', stopped);

    const nextBatch = async (max: number): Promise<RecordedEvent[]> => {
      for (;;) {
        if (closed) return [];
        if (queue.length > 0) {
          const batch = queue.splice(0, Math.max(1, max));
          if (paused && queue.length <= QUEUE_LOW_WATER) {
            paused = false;
            stream.resume();
          }
          return batch;
        }
        if (failure !== undefined) throw failure;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    };

    const subscriptions = this.subscriptions;
    const subscription: Subscription = {
      nextBatch,
      async close() {
        if (closed) return;
        closed = true;
        unconfirm();
        queue.length = 0;
        subscriptions.delete(subscription);
        wake();
        try {
          await stream.unsubscribe();
        } catch {
          // The stream never opened (no server) or is already gone.
        }
        stream.destroy();
      },
      async *[Symbol.asyncIterator]() {
        while (!closed) {
          const batch = await nextBatch(256);
          if (batch.length === 0) return;
          for (const e of batch) yield e;
        }
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  /**
   * Connected while a live subscription to $all is confirmed; after a failure, resubscribing
   * (the projector and the realtime live feed subscribe again with backoff) until the server confirms one again.
   */
  status(): LiveFeedStatus {
    const connected = this.confirmed > 0;
    const resubscribing = !connected && !this.closed && this.lastFailure !== undefined;
    return this.lastFailure !== undefined && !connected
      ? { connected, lastError: this.lastFailure, resubscribing }
      : { connected, resubscribing };
  }

  headPosition(): Promise<Position | null> {
    return this.findHead().catch((err: unknown) => {
      throw portError(err);
    });
  }

  /** EventStoreDB's $all holds only committed events, readable as soon as they are: its head. */
  committedHead(): Promise<Position | null> {
    return this.headPosition();
  }

  private async findHead(): Promise<Position | null> {
    let from: EsdbPosition | typeof END = END;
    // Events at or after `seenFrom` were on an earlier page.
    let seenFrom: Position | undefined;
    for (;;) {
      let raw = 0;
      let lastRaw: Position | undefined;
      const read = this.client.readAll({ fromPosition: from, maxCount: MIN_PAGE, direction: BACKWARDS });
      for await (const resolved of read) {
        raw++;
        const event = resolved.event;
        if (!event) continue;
        lastRaw = event.position;
        if (seenFrom && comparePositions(event.position, seenFrom) >= 0) continue;
        if (!isSystemType(event.type)) {
          await read.cancel();
          return { commit: event.position.commit, prepare: event.position.prepare };
        }
      }
      if (raw < MIN_PAGE || !lastRaw) return null;
      from = lastRaw;
      seenFrom = lastRaw;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.client.dispose();
  }
}
