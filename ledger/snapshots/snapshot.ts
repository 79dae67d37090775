import { createHash } from 'node:crypto';
import { UPCASTERS } from '../event-store/upcast.js';

/**
 * Snapshots of an aggregate's state, so that a cold load (after a restart, on another
 * instance, after the cache let the stream go) reads the latest snapshot and the events
 * after it, not the whole stream. A snapshot is a cache of a fold: the log stays the truth,
 * and a snapshot that does not match it (another state version, another event at its
 * revision) is ignored and the stream is folded from its first event.
 *
 * A snapshot holds the decider's state and the newest idempotency keys of the stream (their
 * request fingerprints are hashes). The state of an aggregate never holds secrets (they never
 * enter the log: DESIGN.md decision 8), so neither does its snapshot.
 */

/** How a decider's state is written to a snapshot and read back. */
export interface SnapshotCodec<State> {
  /**
   * Bump when `evolve` (or anything it calls) changes what a history folds into: snapshots of
   * another version are ignored and rebuilt. The event schemas' versions and the upcasters are
   * part of the version already (`stateVersion`).
   */
  version: number;
  /** Plain JSON (no Map, Decimal or bigint); it must not share objects with `state`. */
  encode(state: State): unknown;
  decode(data: unknown): State;
}

/** The state's version as snapshots record it: the codec's version and a hash of the event versions and upcasters it reads. */
export function stateVersion(codec: SnapshotCodec<unknown>, schemas: Record<string, { version: number }>): string {
  const events = Object.keys(schemas)
    .sort()
    .map((type) => [type, schemas[type]!.version, Object.keys(UPCASTERS[type] ?? {}).sort()]);
  const hash = createHash('sha256').update(JSON.stringify(events)).digest('base64url').slice(0, 12);
  return `${codec.version}.${hash}`;
}

/** One snapshot as stored: the state after the event at `revision` (whose id is `lastEventId`). */
export interface StoredSnapshot {
  streamId: string;
  revision: bigint;
  stateVersion: string;
  lastEventId: string;
  /** JSON text of `SnapshotBody`. */
  data: string;
}

/** An idempotency key kept in a snapshot: its fingerprint, the revisions of its events and the position of the last. */
export type SnapshotKey = [key: string, fingerprint: string | null, revision: string, count: number, commit: string, prepare: string];

export interface SnapshotBody {
  state: unknown;
  keys: SnapshotKey[];
}

/** Where snapshots are kept: the latest per stream. */
export interface SnapshotStore {
  load(streamId: string): Promise<StoredSnapshot | null>;
  /** Keeps it unless a snapshot of a later revision in the same state version is stored already. */
  save(snapshot: StoredSnapshot): Promise<void>;
}

export interface SnapshotOptions {
  store: SnapshotStore;
  /** A snapshot is taken once this many events were appended since the last one; default 500. */
  every?: number;
  /** The newest idempotency keys of the stream a snapshot keeps; default 1,000. */
  keys?: number;
  /** Told when a snapshot could not be written (the command has succeeded already). */
  onError?: (streamId: string, err: unknown) => void;
}

export const DEFAULT_SNAPSHOT_EVERY = 500;
export const DEFAULT_SNAPSHOT_KEYS = 1_000;
