/**
 * The event store port. Semantics follow EventStoreDB: a per-stream revision counted
 * from 0, a global position in the all-stream, optimistic concurrency on append and
 * idempotent re-append of the same event ids.
 */

/** A place in the global log. Ordered by commit, then prepare (as in EventStoreDB). */
export interface Position {
  commit: bigint;
  prepare: bigint;
}

export const START: Position = Object.freeze({ commit: 0n, prepare: 0n });

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function formatPosition(p: Position): string {
  return `${p.commit}/${p.prepare}`;
}

export function parsePosition(s: string): Position {
  const m = /^(\d+)\/(\d+)$/.exec(s);
  if (!m) throw new Error(`not a position: ${s}`);
  return { commit: BigInt(m[1]!), prepare: BigInt(m[2]!) };
}

export interface EventMetadata {
  actorId: string;
  actorRole: string;
  correlationId: string;
  causationId: string | null;
  occurredAt: string;
  idempotencyKey?: string;
  [extra: string]: unknown;
}

/** What a writer hands to `append`. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  eventId: string;
  type: Type;
  version: number;
  data: Data;
  metadata: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> extends NewEvent<Type, Data> {
  streamId: string;
  revision: bigint;
  position: Position;
  recordedAt: Date;
  /**
   * The hash chaining the event to its stream's previous one (ledger/event-store/chain.ts), as
   * stored at append (hex); null for an event from before the chain that is not backfilled.
   */
  hash?: string | null;
  /** The schema version and data as stored, when upcasting changed them (the hash covers these). */
  stored?: { version: number; data: unknown };
}

/** `no_stream`: must not exist; `stream_exists`: must exist; `any`; or the exact last revision. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;

export interface AppendResult {
  /** Revision of the last event written (or found, for an idempotent re-append). */
  nextExpectedRevision: bigint;
  /** Position of the last event written. */
  position: Position;
  /** True when every event was stored already (the same ids, appended earlier or by another process). */
  alreadyStored?: boolean;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual last revision, or 'no_stream'. */
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Wrong expected version on ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedVersionError';
  }
}

/**
 * The event store did not answer (EventStoreDB down, unreachable or without a leader): nothing
 * was decided, and the same call may be tried again later. The app answers 503.
 */
export class EventStoreUnavailableError extends Error {
  constructor(
    readonly store: string,
    override readonly cause: unknown,
  ) {
    super(`the event store (${store}) is not answering: ${String((cause as Error)?.message ?? cause).split('\n')[0]}`);
    this.name = 'EventStoreUnavailableError';
  }
}

/** Some, not all, of the event ids of an append already exist: not a retry of it. */
export class DuplicateEventIdError extends Error {
  constructor(readonly eventIds: string[]) {
    super(`Events already stored with ids ${eventIds.join(', ')} do not match this append`);
    this.name = 'DuplicateEventIdError';
  }
}

export interface ReadAllOptions {
  /** Exclusive: events after this position. Default: from the start. */
  after?: Position;
  maxCount?: number;
}

export interface ReadStreamOptions {
  /** Inclusive. Default 0. */
  fromRevision?: bigint;
  maxCount?: number;
}

export interface Subscription extends AsyncIterable<RecordedEvent> {
  /**
   * Resolves with the next events in log order (at least one, at most `max`) as soon
   * as any are available; with [] once the subscription is closed.
   */
  nextBatch(max: number): Promise<RecordedEvent[]>;
  close(): Promise<void>;
}

/** The state of a store's live feed (what `subscribeAll` follows once caught up). */
export interface LiveFeedStatus {
  /** A live subscription is open and the store confirmed it (or the feed needs no connection of its own). */
  connected: boolean;
  /** Why the last live subscription failed, one line; kept until one is confirmed again. */
  lastError?: string;
  /** A live subscription failed and none is confirmed yet (the projector and the realtime feed subscribe again with backoff). */
  resubscribing: boolean;
}

export interface EventStore {
  readonly name: 'postgres' | 'eventstoredb';
  append(streamId: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catches up from `after` (exclusive), then follows live appends. */
  subscribeAll(options?: { after?: Position }): Subscription;
  /**
   * Position of the last event readable now, or null for an empty log: where a reader that
   * follows the log from now on starts (an event before it may still be committing).
   */
  headPosition(): Promise<Position | null>;
  /**
   * Position of the last event committed now, or null for an empty log: how far a catch-up
   * that must include everything written so far reads. It may be past `headPosition` (a
   * transaction that began earlier is still open), so a reader waits to reach it
   * (projections/runner.ts, `readUntil`) and never follows the log from it.
   */
  committedHead(): Promise<Position | null>;
  /** The live feed's state, for readiness and `ledger stats`. Asks the store nothing. */
  status(): LiveFeedStatus;
  close(): Promise<void>;
}
