import type { Decider, DomainEvent } from '../decider.js';

/** What snapshotting needs of a decider, whatever its commands and events: its codec and its event schemas. */
type Snapshotted<State, Command = never> = Pick<Decider<Command, DomainEvent, State>, 'snapshot' | 'schemas'>;
import type { EventStore, Position } from '../event-store/port.js';
import {
  DEFAULT_SNAPSHOT_EVERY,
  DEFAULT_SNAPSHOT_KEYS,
  stateVersion,
  type SnapshotBody,
  type SnapshotKey,
  type SnapshotOptions,
} from './snapshot.js';

/** What the command handler keeps of an idempotency key: what that command recorded. */
export interface KeyEntry {
  /** The events and their ids; read back from the log on use when the entry came from a snapshot. */
  events?: DomainEvent[];
  eventIds?: string[];
  position: Position;
  /** The fingerprint of the request (none on events recorded before fingerprints were kept). */
  fingerprint?: string;
  /** Revision of the command's first event, and how many it recorded. */
  revision: bigint;
  count: number;
}

/** A stream's state as the command handler caches it. */
export interface CachedStream<State> {
  revision: bigint | 'no_stream';
  state: State;
  /** idempotency key -> what that command recorded */
  keys: Map<string, KeyEntry>;
  /** Id of the event at `revision` (a snapshot records it, to tell whether the log still has it). */
  lastEventId?: string;
  /** Revision of the latest snapshot read or taken of this stream. */
  snapshotAt?: bigint;
  /** Loaded from a snapshot that keeps part of the state beside it: read back what a command names. */
  partial?: boolean;
}

export const emptyStream = <State>(decider: Decider<unknown, DomainEvent, State>): CachedStream<State> => ({
  revision: 'no_stream',
  state: decider.initialState(),
  keys: new Map(),
});

/** Reads and takes the snapshots of the streams whose decider has a snapshot codec. */
export class Snapshotter {
  private readonly every: number;
  private readonly keep: number;
  private readonly versions = new WeakMap<object, string>();
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly options: SnapshotOptions) {
    this.every = Math.max(1, options.every ?? DEFAULT_SNAPSHOT_EVERY);
    this.keep = options.keys ?? DEFAULT_SNAPSHOT_KEYS;
  }

  private versionOf<State>(decider: Snapshotted<State>): string | null {
    if (!decider.snapshot) return null;
    let v = this.versions.get(decider);
    if (!v) this.versions.set(decider, (v = stateVersion(decider.snapshot, decider.schemas)));
    return v;
  }

  /** The stream as its latest snapshot left it, when one of the decider's current state version is stored. */
  async restore<State>(decider: Snapshotted<State>, streamId: string): Promise<CachedStream<State> | null> {
    const version = this.versionOf(decider);
    if (!version) return null;
    const stored = await this.options.store.load(streamId);
    if (!stored || stored.stateVersion !== version) return null;
    const body = JSON.parse(stored.data) as SnapshotBody;
    const keys = new Map<string, KeyEntry>();
    for (const [key, fingerprint, revision, count, commit, prepare] of body.keys) {
      keys.set(key, {
        revision: BigInt(revision),
        count,
        position: { commit: BigInt(commit), prepare: BigInt(prepare) },
        ...(fingerprint !== null ? { fingerprint } : {}),
      });
    }
    return {
      revision: stored.revision,
      state: decider.snapshot!.decode(body.state),
      keys,
      lastEventId: stored.lastEventId,
      snapshotAt: stored.revision,
      ...(decider.snapshot!.archive ? { partial: true } : {}),
    };
  }

  /** Reads back, into a state loaded from a snapshot, the entries kept beside it that the command names. */
  async lookUp<State, Command>(decider: Snapshotted<State, Command>, streamId: string, cached: CachedStream<State>, command: Command) {
    const archive = decider.snapshot?.archive;
    if (!archive || !cached.partial) return;
    const missing = archive.missing(command, cached.state);
    if (missing.length > 0) archive.restore(cached.state, await this.options.store.loadArchived(streamId, missing));
  }

  /** Takes a snapshot when `every` events were folded since the last one. The state is encoded now; it is written in the background. */
  maybeTake<State>(decider: Snapshotted<State>, streamId: string, cached: CachedStream<State>): void {
    const version = this.versionOf(decider);
    if (!version || cached.revision === 'no_stream' || !cached.lastEventId) return;
    if (cached.revision - (cached.snapshotAt ?? -1n) < BigInt(this.every)) return;
    cached.snapshotAt = cached.revision;
    const keys: SnapshotKey[] = [];
    for (const [key, e] of [...cached.keys].slice(-this.keep)) {
      keys.push([key, e.fingerprint ?? null, e.revision.toString(), e.count, e.position.commit.toString(), e.position.prepare.toString()]);
    }
    const body: SnapshotBody = { state: decider.snapshot!.encode(cached.state), keys };
    const archive = decider.snapshot!.archive;
    const entries = archive?.pending(cached.state) ?? [];
    const state = cached.state;
    const write = this.options.store
      .save({
        streamId,
        revision: cached.revision,
        stateVersion: version,
        lastEventId: cached.lastEventId,
        data: JSON.stringify(body),
        ...(entries.length > 0 ? { archive: entries } : {}),
      })
      .then(() =>
        archive?.stored(
          state,
          entries.map(([key]) => key),
        ),
      )
      .catch((err) => this.options.onError?.(streamId, err))
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Resolves once the snapshots being written are stored (tests, the benchmark, shutdown). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}

/** Reads back the events of a key that a snapshot kept without them. */
export async function withEvents(store: EventStore, streamId: string, entry: KeyEntry): Promise<KeyEntry> {
  if (entry.events && entry.eventIds) return entry;
  const recorded = await store.readStream(streamId, { fromRevision: entry.revision, maxCount: entry.count });
  entry.events = recorded.map((r) => ({ type: r.type, data: r.data }));
  entry.eventIds = recorded.map((r) => r.eventId);
  return entry;
}
