import { randomUUID } from 'node:crypto';
import { newId } from './ids.js';
import type { Decider, DomainEvent } from './decider.js';
import {
  DuplicateEventIdError,
  WrongExpectedVersionError,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type Position,
} from './event-store/port.js';
import { Snapshotter } from './snapshots/snapshotting.js';
import {
  deterministicUuid,
  fingerprintOf,
  IDEMPOTENCY_KEY_REUSED,
  IdempotencyKeyReusedError,
  replay,
  requestFingerprint,
} from './handling/idempotency.js';
import { KeyedLock } from './handling/keyed-lock.js';
import { StreamCache } from './handling/stream-cache.js';

export { deterministicUuid, IDEMPOTENCY_KEY_REUSED, IdempotencyKeyReusedError, requestFingerprint };
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

/**
 * Load, decide, append with the expected revision, retry on conflict. Its parts live in
 * handling/: idempotency (a retried command answers as the first did), the stream cache (state
 * caught up from its revision, from a snapshot when cold) and the per-stream lock.
 *
 * Within this process commands on one stream queue; across processes the expected revision
 * decides and the loser retries.
 */
export class CommandHandler {
  private readonly locks = new KeyedLock();
  private readonly snapshots: Snapshotter | null;
  private readonly cache: StreamCache;

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
    this.cache = new StreamCache(store, this.snapshots, options.cacheSize ?? 10_000);
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
        let cached = await this.cache.load(decider, streamId, fresh);
        let events: Event[] | null = null;
        for (;;) {
          if (ctx.idempotencyKey) {
            const done = cached.keys.get(ctx.idempotencyKey);
            if (done) return replay<Event>(this.store, streamId, done, ctx.idempotencyKey, fingerprint);
          }
          await this.snapshots?.lookUp(decider, streamId, cached, command);
          try {
            events = decider.decide(command, cached.state);
          } catch (err) {
            if (fresh) throw err;
          }
          if (fresh || (events !== null && events.length > 0)) break;
          fresh = true;
          cached = await this.cache.load(decider, streamId, true);
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
            this.cache.forget(streamId);
            if (ctx.idempotencyKey) {
              const done = (await this.cache.load(decider, streamId)).keys.get(ctx.idempotencyKey);
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
    // Time-ordered (ledger/ids.ts); a retried command's ids stay derived from its key.
    const eventId = ctx.idempotencyKey ? deterministicUuid(streamId, ctx.idempotencyKey, String(i)) : newId();
    return { eventId, type: e.type, version: def.version, data, metadata };
  });
}
