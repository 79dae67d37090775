import { createHash } from 'node:crypto';
import type { DomainEvent } from '../decider.js';
import type { EventStore } from '../event-store/port.js';
import { withEvents, type KeyEntry } from '../snapshots/snapshotting.js';
import type { CommandContext, CommandResult } from '../command-handler.js';

/**
 * Idempotency of commands: the fingerprint recorded beside a key, the answer a retried command
 * gets (or its refusal when the key was used for another request), and the event ids a retry
 * derives from its inputs.
 */

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

export function fingerprintOf(command: unknown, ctx: CommandContext): string | undefined {
  if (!ctx.idempotencyKey) return undefined;
  const type = (command as { type?: unknown } | null)?.type;
  return requestFingerprint(typeof type === 'string' ? type : '', ctx.idempotencyPayload);
}

/** The answer of the earlier command with this key, if it was the same request; a different request is refused. */
export async function replay<Event extends DomainEvent>(
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

/** A UUID derived from its inputs, so that a retried command writes the same event ids. */
export function deterministicUuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
