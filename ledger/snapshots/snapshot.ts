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

/**
 * Entries a state lets go of once a snapshot keeps them (a wallet's closed transactions): a
 * state that would otherwise grow with the whole history stays the size of what is open. They
 * are stored beside the snapshot, one row per key, in the snapshot's own write, and read back
 * by key for the keys a command names, before it is decided.
 *
 * The rule that keeps this exact: every snapshot is written with the entries of every key let
 * go at or before its revision (the state folded from the previous snapshot, or from the first
 * event, holds the ones since, in `pending`). A state folded from the first event holds them all.
 */
export interface SnapshotArchive<State, Command = unknown> {
  /** Entries to store with the next snapshot, as [key, value text]; those known stored may be left out. */
  pending(state: State): [key: string, value: string][];
  /** These keys were stored: they need not be written again. */
  stored(state: State, keys: readonly string[]): void;
  /** The keys a command names that the state does not hold: to read back before deciding. */
  missing(command: Command, state: State): string[];
  /** Puts stored entries back into the state (a decision may read them). */
  restore(state: State, entries: readonly [key: string, value: string][]): void;
}

/** How a decider's state is written to a snapshot and read back. */
export interface SnapshotCodec<State, Command = unknown> {
  /**
   * Bump when `evolve` (or anything it calls) changes what a history folds into: snapshots of
   * another version are ignored and rebuilt. The event schemas' versions and the upcasters are
   * part of the version already (`stateVersion`).
   */
  version: number;
  /** Plain JSON (no Map, Decimal or bigint); it must not share objects with `state`. */
  encode(state: State): unknown;
  decode(data: unknown): State;
  /** For a state that keeps part of itself beside its snapshots, not in them. */
  archive?: SnapshotArchive<State, Command>;
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
  /** Entries to keep beside it, by key (`SnapshotArchive`); written before the snapshot, in the same transaction. */
  archive?: [key: string, value: string][];
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
  /** The stored entries of these keys (those the stream has; any order). */
  loadArchived(streamId: string, keys: readonly string[]): Promise<[key: string, value: string][]>;
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
