import { createHash, randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from './decider.js';
import {
  DuplicateEventIdError,
  WrongExpectedVersionError,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
} from './event-store/port.js';
import { emptyStream, Snapshotter, withEvents, type CachedStream, type KeyEntry } from './snapshots/snapshotting.js';
import type { SnapshotOptions } from './snapshots/snapshot.js';

export interface Actor {
  id: string;
  role: string;
}

export const SYSTEM_ACTOR: Actor = { id: 'system', role: 'SYSTEM' };

export interface CommandContext {
  actor: Actor;
  correlationId?: string;
  causationId?: string | null;
  /**
   * The same key on the same stream makes a retried command a no-op that answers as the first did.
   * The key stands for one request: reused with another command type or another
   * `idempotencyPayload` it is refused (IdempotencyKeyReusedError) and nothing is written.
   */
  idempotencyKey?: string;
  /**
   * What makes two requests with one key the same request (e.g. the checked fields of an HTTP
   * body), without the ids and times the server generates. Its hash, with the command type, is
   * recorded beside the key, so it must hold no secrets. Without it, only the command type is compared.
   */
  idempotencyPayload?: unknown;
  /** Extra metadata (request ip, reason). Never secrets. */
  extra?: Record<string, unknown>;
}

export interface CommandResult<Event extends DomainEvent> {
  /** The events this command recorded (on a retry: those the first attempt recorded). */
  events: Event[];
  eventIds: string[];
  /** Position of the last event recorded, for read-your-writes; null when nothing was recorded. */
  position: Position | null;
  /** True when an earlier command with the same idempotency key already did the work. */
  replayed: boolean;
}

export const IDEMPOTENCY_KEY_REUSED = 'This Idempotency-Key was already used for a different request.';

/** An idempotency key that an earlier, different request on the same stream used. */
export class IdempotencyKeyReusedError extends Error {
  /** What an HTTP server answers with. */
  readonly statusCode = 422;
  constructor(readonly idempotencyKey: string) {
    super(IDEMPOTENCY_KEY_REUSED);
    this.name = 'IdempotencyKeyReusedError';
  }
}

/** JSON with object keys sorted, so that equal payloads hash alike. */
function canonicalJson(value: unknown): string {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  return JSON.stringify(value) ?? 'null';
}

/** The fingerprint recorded beside an idempotency key: a hash of the command type and the request's payload. */
export function requestFingerprint(commandType: string, payload: unknown): string {
  return createHash('sha256')
    .update(canonicalJson([commandType, payload ?? null]))
    .digest('base64url');
}

function fingerprintOf(command: unknown, ctx: CommandContext): string | undefined {
  if (!ctx.idempotencyKey) return undefined;
  const type = (command as { type?: unknown } | null)?.type;
  return requestFingerprint(typeof type === 'string' ? type : '', ctx.idempotencyPayload);
}

/** The answer of the earlier command with this key, if it was the same request; a different request is refused. */
async function replay<Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  done: KeyEntry,
  key: string,
  fingerprint: string | undefined,
): Promise<CommandResult<Event>> {
  // Events recorded before fingerprints were kept carry none: those answer as they always did.
  if (done.fingerprint !== undefined && done.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError(key);
  const { events, eventIds } = await withEvents(store, streamId, done);
  return { events: events as Event[], eventIds: eventIds!, position: done.position, replayed: true };
}

/** An in-process queue per stream, so that one process never races itself on a stream. */
class KeyedLock {
  private tails = new Map<string, Promise<void>>();
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = prev.then(() => mine);
    this.tails.set(key, tail);
    await prev;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/** A UUID derived from its inputs, so that a retried command writes the same event ids. */
export function deterministicUuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Load, decide, append with the expected revision, retry on conflict.
 *
 * Aggregate state is cached per stream and caught up from its revision on each command,
 * so a long stream is folded once, not on every command. Within this process commands on
 * one stream queue; across processes the expected revision decides and the loser retries.
 */
export class CommandHandler {
  private readonly cache = new Map<string, CachedStream<unknown>>();
  private readonly locks = new KeyedLock();
  private readonly snapshots: Snapshotter | null;

  constructor(
    private readonly store: EventStore,
    private readonly options: {
      maxRetries?: number;
      cacheSize?: number;
      /** Told of every append that lost a race (WrongExpectedVersion), and whether it is retried. */
      onConflict?: (category: string, retried: boolean) => void;
      /** Snapshots of the streams whose decider has a codec: a cold load reads the latest and the events after it. */
      snapshots?: SnapshotOptions;
    } = {},
  ) {
    this.snapshots = options.snapshots ? new Snapshotter(options.snapshots) : null;
  }

  async handle<Command, Event extends DomainEvent, State>(
    decider: Decider<Command, Event, State>,
    id: string,
    command: Command,
    ctx: CommandContext,
  ): Promise<CommandResult<Event>> {
    const streamId = `${decider.category}-${id}`;
    const fingerprint = fingerprintOf(command, ctx);
    return this.locks.run(streamId, async () => {
      const maxRetries = this.options.maxRetries ?? 5;
      for (let attempt = 0; ; attempt++) {
        // Commands on a stream queue in this process, so its cached state is current unless
        // another process wrote: then the append's expected revision fails and the retry
        // reads what is new. A refusal or a no-op is only answered from a fresh read.
        let fresh = attempt > 0 || !this.cache.has(streamId);
        let cached = await this.load(decider, streamId, fresh);
        let events: Event[] | null = null;
        for (;;) {
          if (ctx.idempotencyKey) {
            const done = cached.keys.get(ctx.idempotencyKey);
            if (done) return replay<Event>(this.store, streamId, done, ctx.idempotencyKey, fingerprint);
          }
          try {
            events = decider.decide(command, cached.state);
          } catch (err) {
            if (fresh) throw err;
          }
          if (fresh || (events !== null && events.length > 0)) break;
          fresh = true;
          cached = await this.load(decider, streamId, true);
        }
        if (events === null || events.length === 0) return { events: [], eventIds: [], position: null, replayed: false };
        const toAppend = toNewEvents(decider, streamId, events, ctx, fingerprint);
        try {
          const result = await this.store.append(streamId, toAppend, {
            expectedRevision: cached.revision === 'no_stream' ? 'no_stream' : cached.revision,
          });
          // Another process may have written the same ids (same idempotency key) first:
          // then the store answered for those, and the next load picks them up.
          if (!result.alreadyStored && result.nextExpectedRevision === nextRevision(cached.revision, events.length)) {
            for (const e of events) cached.state = decider.evolve(cached.state, e);
            cached.revision = result.nextExpectedRevision;
            cached.lastEventId = toAppend[toAppend.length - 1]!.eventId;
            if (ctx.idempotencyKey) {
              cached.keys.set(ctx.idempotencyKey, {
                events,
                eventIds: toAppend.map((e) => e.eventId),
                position: result.position,
                fingerprint,
                revision: result.nextExpectedRevision - BigInt(events.length - 1),
                count: events.length,
              });
            }
            this.snapshots?.maybeTake(decider, streamId, cached);
          } else {
            // The store answered for events another process appended with the same ids: answer
            // with what that process recorded, not with what this one decided.
            this.cache.delete(streamId);
            if (ctx.idempotencyKey) {
              const done = (await this.load(decider, streamId)).keys.get(ctx.idempotencyKey);
              if (done) return replay<Event>(this.store, streamId, done, ctx.idempotencyKey, fingerprint);
            }
          }
          return { events, eventIds: toAppend.map((e) => e.eventId), position: result.position, replayed: false };
        } catch (err) {
          // Ids derived from this key that another process stored for a different request: the
          // next load reads that request, and the key check above answers for it.
          const keyTaken = err instanceof DuplicateEventIdError && ctx.idempotencyKey !== undefined;
          const conflict = err instanceof WrongExpectedVersionError;
          if (conflict) this.options.onConflict?.(decider.category, attempt < maxRetries);
          if (!(conflict || keyTaken) || attempt >= maxRetries) throw err;
          // Someone else appended: the next load catches the cached state up.
        }
      }
    });
  }

  /**
   * The stream's cached state; with `catchUp`, first read what was appended since. A stream
   * not in the cache starts from its latest snapshot, if it has one that the log still holds.
   */
  private async load<Command, Event extends DomainEvent, State>(
    decider: Decider<Command, Event, State>,
    streamId: string,
    catchUp = true,
  ): Promise<CachedStream<State>> {
    let cached = this.cache.get(streamId) as CachedStream<State> | undefined;
    if (cached && !catchUp) return cached;
    let recorded: RecordedEvent[] | undefined;
    if (!cached) {
      cached = (await this.snapshots?.restore(decider, streamId)) ?? emptyStream(decider);
      if (cached.revision !== 'no_stream') {
        // Read from the snapshot's own event: a log restored from an older backup no longer has it.
        const read = await this.store.readStream(streamId, { fromRevision: cached.revision });
        if (read[0]?.eventId === cached.lastEventId) recorded = read.slice(1);
        else cached = emptyStream(decider);
      }
      this.remember(streamId, cached);
    }
    const from = cached.revision === 'no_stream' ? 0n : cached.revision + 1n;
    recorded ??= await this.store.readStream(streamId, { fromRevision: from });
    for (const r of recorded) {
      const event = { type: r.type, data: r.data } as Event;
      cached.state = decider.evolve(cached.state, event);
      cached.revision = r.revision;
      cached.lastEventId = r.eventId;
      const key = r.metadata.idempotencyKey;
      if (typeof key === 'string') {
        const fingerprint = r.metadata.idempotencyFingerprint;
        const entry = cached.keys.get(key) ?? {
          events: [],
          eventIds: [],
          position: r.position,
          revision: r.revision,
          count: 0,
          ...(typeof fingerprint === 'string' ? { fingerprint } : {}),
        };
        entry.events?.push(event);
        entry.eventIds?.push(r.eventId);
        entry.position = r.position;
        entry.count++;
        cached.keys.set(key, entry);
      }
    }
    this.snapshots?.maybeTake(decider, streamId, cached);
    return cached;
  }

  private remember(streamId: string, entry: CachedStream<unknown>): void {
    const max = this.options.cacheSize ?? 10_000;
    if (this.cache.size >= max) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(streamId, entry);
  }

  /** Forgets cached state (tests, or after an operator rewrote read models). */
  clearCache(): void {
    this.cache.clear();
  }

  /** Resolves once the snapshots being written are stored. */
  async flushSnapshots(): Promise<void> {
    await this.snapshots?.flush();
  }
}

function nextRevision(current: bigint | 'no_stream', count: number): bigint {
  return (current === 'no_stream' ? -1n : current) + BigInt(count);
}

/** Wraps decided events for the store: schema-checked data, version, ids and the actor's metadata. */
export function toNewEvents<Event extends DomainEvent>(
  decider: Decider<unknown, Event, unknown>,
  streamId: string,
  events: Event[],
  ctx: CommandContext,
  fingerprint?: string,
): NewEvent[] {
  const correlationId = ctx.correlationId ?? randomUUID();
  const occurredAt = new Date().toISOString();
  return events.map((e, i) => {
    const def = decider.schemas[e.type];
    if (!def) throw new Error(`${decider.category} has no schema for ${e.type}`);
    // A decider bug must not reach the log: check every event against its schema.
    const data = def.schema.parse(e.data);
    const metadata: EventMetadata = {
      ...ctx.extra,
      actorId: ctx.actor.id,
      actorRole: ctx.actor.role,
      correlationId,
      causationId: ctx.causationId ?? null,
      occurredAt,
      ...(ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {}),
      ...(ctx.idempotencyKey && fingerprint ? { idempotencyFingerprint: fingerprint } : {}),
    };
    const eventId = ctx.idempotencyKey ? deterministicUuid(streamId, ctx.idempotencyKey, String(i)) : randomUUID();
    return { eventId, type: e.type, version: def.version, data, metadata };
  });
}
