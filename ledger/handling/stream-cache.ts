import type { Decider, DomainEvent } from '../decider.js';
import type { EventStore, RecordedEvent } from '../event-store/port.js';
import { emptyStream, type CachedStream, type Snapshotter } from '../snapshots/snapshotting.js';

/**
 * Each stream's state as the command handler last left it, caught up from its revision on each
 * command, so a long stream is folded once, not on every command. At most `size` streams, the
 * oldest forgotten first.
 */
export class StreamCache {
  private readonly streams = new Map<string, CachedStream<unknown>>();

  constructor(
    private readonly store: EventStore,
    private readonly snapshots: Snapshotter | null,
    private readonly size: number,
  ) {}

  has(streamId: string): boolean {
    return this.streams.has(streamId);
  }

  /** Forgets one stream (another process appended what this one did not decide). */
  forget(streamId: string): void {
    this.streams.delete(streamId);
  }

  /** Forgets every stream (tests, or after an operator rewrote read models). */
  clear(): void {
    this.streams.clear();
  }

  /**
   * The stream's cached state; with `catchUp`, first read what was appended since. A stream
   * not in the cache starts from its latest snapshot, if it has one that the log still holds.
   */
  async load<Command, Event extends DomainEvent, State>(
    decider: Decider<Command, Event, State>,
    streamId: string,
    catchUp = true,
  ): Promise<CachedStream<State>> {
    let cached = this.streams.get(streamId) as CachedStream<State> | undefined;
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
    if (this.streams.size >= this.size) {
      const oldest = this.streams.keys().next().value;
      if (oldest !== undefined) this.streams.delete(oldest);
    }
    this.streams.set(streamId, entry);
  }
}
