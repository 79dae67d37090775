import { createHash, hash as oneShotHash } from 'node:crypto';
import type { RecordedEvent } from './port.js';

/**
 * The hash chain of the event log (docs/finance.md, "A log no one can rewrite"), shared by both
 * event store adapters and by `ledger seal` / `ledger verify`.
 *
 * Each event's hash is SHA-256 over the canonical JSON of
 * `[previous hash, stream, revision, event id, type, schema version, data, metadata]`:
 * the previous hash is that of the stream's event before it (`GENESIS` for revision 0). The
 * canonical form sorts object keys and leaves out undefined values, as the stored JSON (a
 * jsonb column, or EventStoreDB's JSON) reads back, so the hash of an event read back equals
 * the hash computed when it was appended. It is computed once, at append, and stored with the
 * event; reads hand the stored hash on and never compute it again.
 */

/** The previous hash of a stream's first event. */
export const GENESIS = '0'.repeat(64);

/**
 * A copy of a JSON value whose objects have their keys in code-point order, undefined members
 * and functions left out: JSON.stringify of it is the canonical text. Copying, then one native
 * JSON.stringify, took about half the time of a serialiser written out in JavaScript.
 */
function sorted(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as unknown;
      const copy = sorted(item);
      if (copy !== item && !out) out = value.slice(0, i);
      if (out) out.push(copy);
    }
    return out ?? value;
  }
  const json = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof json === 'function') return sorted(json.call(value));
  const keys = Object.keys(value);
  // Already canonical (keys in order, nothing to leave out or copy below): the object itself.
  let same = true;
  for (let i = 0; i < keys.length && same; i++) {
    const v = (value as Record<string, unknown>)[keys[i]!];
    same = (i === 0 || keys[i - 1]! < keys[i]!) && v !== undefined && typeof v !== 'function' && sorted(v) === v;
  }
  if (same) return value;
  keys.sort();
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = sorted((value as Record<string, unknown>)[k]);
  return out;
}

/** JSON with object keys in code-point order and undefined members left out (as JSON.stringify leaves them). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value)) ?? 'null';
}

/** What an event's hash covers, besides the previous hash. */
export interface ChainedFields {
  streamId: string;
  revision: bigint;
  eventId: string;
  type: string;
  version: number;
  data: unknown;
  metadata: unknown;
}

/**
 * The hash of one event from the canonical JSON of its data and metadata (already made, so an
 * append serialises each once and reuses the text for the statement it sends).
 */
export function hashCanonical(
  prevHash: string,
  e: Omit<ChainedFields, 'data' | 'metadata'>,
  dataJson: string,
  metadataJson: string,
): string {
  // The canonical JSON of the array, hashed in one call (no Hash object per event).
  return oneShotHash(
    'sha256',
    `["${prevHash}",${JSON.stringify(e.streamId)},"${e.revision}",${JSON.stringify(e.eventId)},${JSON.stringify(e.type)},${e.version},${dataJson},${metadataJson}]`,
    'hex',
  );
}

/** The hash of one event (as stored: its stored schema version and data, before upcasting). */
export function eventHash(prevHash: string, e: ChainedFields): string {
  return hashCanonical(prevHash, e, canonicalJson(e.data), canonicalJson(e.metadata));
}

/** The hash a recorded event's content gives, chained from `prevHash`: over the stored version and data. */
export function contentHash(e: RecordedEvent, prevHash: string): string {
  return eventHash(prevHash, {
    streamId: e.streamId,
    revision: e.revision,
    eventId: e.eventId,
    type: e.type,
    version: e.stored?.version ?? e.version,
    data: e.stored?.data ?? e.data,
    metadata: e.metadata,
  });
}

/** One event of an append, hashed, with the canonical texts of its data and metadata. */
export interface ChainedEvent {
  revision: bigint;
  hash: string;
  dataJson: string;
  metadataJson: string;
}

/**
 * Chains the events of one append in memory from the stream's head (`prevHash` at revision
 * `firstRevision - 1`): one serialisation and one hash per event.
 */
export function chainAppend(
  streamId: string,
  firstRevision: bigint,
  prevHash: string,
  events: { eventId: string; type: string; version: number; data: unknown; metadata: unknown }[],
): ChainedEvent[] {
  const out: ChainedEvent[] = [];
  let prev = prevHash;
  let revision = firstRevision;
  for (const e of events) {
    const dataJson = canonicalJson(e.data);
    const metadataJson = canonicalJson(e.metadata);
    prev = hashCanonical(prev, { streamId, revision, eventId: e.eventId, type: e.type, version: e.version }, dataJson, metadataJson);
    out.push({ revision, hash: prev, dataJson, metadataJson });
    revision++;
  }
  return out;
}

/** A stream's last event as a seal sees it. */
export interface StreamHead {
  streamId: string;
  revision: bigint;
  hash: string;
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest();

/**
 * The digest of a seal: the Merkle root over every stream's head, the leaves
 * SHA-256(canonical `[stream, revision, hash]`) in the order of the stream ids, each inner node
 * SHA-256(left || right), a node without a partner carried up as it is. An empty log: SHA-256 of "".
 */
export function merkleRoot(heads: Iterable<StreamHead>): string {
  const sorted = [...heads].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
  if (sorted.length === 0) return sha256('').toString('hex');
  let level: Buffer[] = sorted.map((h) => sha256(`[${JSON.stringify(h.streamId)},"${h.revision}",${JSON.stringify(h.hash)}]`));
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2)
      next.push(i + 1 < level.length ? sha256(Buffer.concat([level[i]!, level[i + 1]!])) : level[i]!);
    level = next;
  }
  return level[0]!.toString('hex');
}

/**
 * The heads an adapter has written or read lately, so that an append with an expected revision
 * finds the previous hash without asking the database first. An entry says "the event at this
 * revision has this hash", which never changes for a stored event; an append whose expectation
 * matches the entry chains from it, and the store's own check (the revision, and on PostgreSQL
 * the stream's stored head hash) refuses the append if it was wrong (a backfill since), after
 * which the adapter reads the head and tries again. Bounded: the oldest entries are dropped.
 */
export class StreamHeads {
  private readonly heads = new Map<string, { revision: bigint; hash: string }>();

  constructor(private readonly max = 50_000) {}

  get(streamId: string): { revision: bigint; hash: string } | undefined {
    return this.heads.get(streamId);
  }

  /** Remembers a head; a null hash (an event from before the chain, not yet backfilled) is not kept. */
  set(streamId: string, revision: bigint, hash: string | null | undefined): void {
    if (!hash) {
      this.heads.delete(streamId);
      return;
    }
    const known = this.heads.get(streamId);
    if (known && known.revision > revision) return;
    this.heads.delete(streamId);
    this.heads.set(streamId, { revision, hash });
    if (this.heads.size > this.max) this.heads.delete(this.heads.keys().next().value!);
  }

  forget(streamId: string): void {
    this.heads.delete(streamId);
  }

  clear(): void {
    this.heads.clear();
  }
}
