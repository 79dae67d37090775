import {
  ANY,
  DeadlineExceededError,
  NO_STREAM,
  NotLeaderError,
  STREAM_EXISTS,
  UnavailableError,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type Position as EsdbPosition,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import {
  comparePositions,
  EventStoreUnavailableError,
  START,
  type EventMetadata,
  type ExpectedRevision,
  type Position,
  type RecordedEvent,
} from './port.js';
import { upcast } from './upcast.js';

/**
 * How the EventStoreDB client's values map onto the event store port's: positions, expected
 * revisions, recorded events (upcast to their current schema) and errors.
 */

/** Largest value of a signed 64-bit position; the server sends -1 (as unsigned) for "none". */
const MAX_POSITION = (1n << 63n) - 1n;

export function isSystemType(type: string): boolean {
  return type.startsWith('$');
}

export function validPosition(p: EsdbPosition | undefined): Position | undefined {
  if (!p) return undefined;
  if (p.commit < 0n || p.prepare < 0n || p.commit > MAX_POSITION || p.prepare > MAX_POSITION) return undefined;
  return { commit: p.commit, prepare: p.prepare };
}

export function toExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return expected;
  }
}

/**
 * Whether the server answered an append for events it had stored already (the same ids: a
 * retry, or another instance that appended them first), as the PostgreSQL adapter's
 * `alreadyStored` says. EventStoreDB answers such an append as a success without a position,
 * and at the revision the events were stored at, which is not the one expected when another
 * instance's writes came between.
 */
export function answeredForStoredEvents(
  expected: ExpectedRevision,
  count: number,
  answer: { nextExpectedRevision: bigint; position?: EsdbPosition },
): boolean {
  if (!validPosition(answer.position)) return true;
  if (typeof expected === 'bigint') return answer.nextExpectedRevision !== expected + BigInt(count);
  if (expected === 'no_stream') return answer.nextExpectedRevision !== BigInt(count - 1);
  return false;
}

/** The metadata key that carries an event's chain hash (chain.ts) on EventStoreDB. */
export const CHAIN_HASH_KEY = 'chainHash';

function parseJson(value: unknown): unknown {
  if (value instanceof Uint8Array) {
    const text = Buffer.from(value).toString('utf8');
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return value;
}

/** Converts a stored event; `fallbackCommit` is the read's commit position, for servers that leave the record's out. */
export function toRecorded(event: EsdbRecordedEvent, fallbackCommit?: bigint): RecordedEvent {
  const rawMetadata = parseJson(event.metadata);
  let version = 1;
  let metadata: Record<string, unknown> = {};
  let hash: string | null = null;
  if (rawMetadata && typeof rawMetadata === 'object' && !Array.isArray(rawMetadata)) {
    const { schemaVersion, [CHAIN_HASH_KEY]: chainHash, ...rest } = rawMetadata as Record<string, unknown>;
    if (typeof schemaVersion === 'number' && Number.isInteger(schemaVersion)) version = schemaVersion;
    if (typeof chainHash === 'string') hash = chainHash;
    metadata = rest;
  }
  const position =
    validPosition(event.position) ??
    (fallbackCommit !== undefined && fallbackCommit <= MAX_POSITION ? { commit: fallbackCommit, prepare: fallbackCommit } : START);
  const data = parseJson(event.data);
  const recorded: RecordedEvent = {
    eventId: event.id,
    streamId: event.streamId,
    revision: event.revision,
    type: event.type,
    version,
    data,
    metadata: metadata as EventMetadata,
    position,
    recordedAt: event.created,
    hash,
  };
  const current = upcast(recorded);
  return current === recorded ? recorded : { ...current, stored: { version, data } };
}

/** The stored event of a resolved event from `$all`, or null for a system event. */
export function fromAll(resolved: AllStreamResolvedEvent, after: Position | undefined): RecordedEvent | null {
  const event = resolved.event;
  if (!event || isSystemType(event.type)) return null;
  // Our `after` is exclusive; the server starts reads at the position itself.
  if (after && comparePositions(event.position, after) <= 0) return null;
  return toRecorded(event, resolved.commitPosition);
}

/** The client's "not answering" errors as the port's, so the app can answer 503; others as they are. */
export function portError(err: unknown): unknown {
  const unavailable = err instanceof UnavailableError || err instanceof DeadlineExceededError || err instanceof NotLeaderError;
  return unavailable ? new EventStoreUnavailableError('eventstoredb', err) : err;
}
