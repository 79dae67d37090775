import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  comparePositions,
  formatPosition,
  parsePosition,
  START,
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
} from '../event-store/port.js';
import { contentHash, GENESIS, merkleRoot, type StreamHead } from '../event-store/chain.js';
import { deterministicUuid } from '../handling/idempotency.js';

/**
 * Seals and the check of the whole log (docs/finance.md, "A log no one can rewrite").
 *
 * A seal is an event on `ledger-seals` whose data holds the Merkle root over every stream's head
 * (chain.ts) up to a position of the log. Operators keep its digest outside the database.
 * `verifyLog` recomputes every event's hash from its content, checks each against the one
 * stored, recomputes every seal's root from the content, and, given a digest kept outside,
 * says whether the log up to that seal is still the one that was sealed.
 */

export const SEAL_STREAM = 'ledger-seals';
export const SEALED = 'ledger.sealed';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 digest in hex');
export const sealEventSchemas = {
  [SEALED]: {
    version: 1,
    schema: z.object({
      /** The Merkle root over every stream's head up to `upTo`. */
      digest: hex64,
      /** The position of the last event it covers (`commit/prepare`). */
      upTo: z.string().regex(/^\d+\/\d+$/),
      streams: z.number().int().nonnegative(),
      events: z.number().int().nonnegative(),
      /** `command` (ledger seal) or `daily` (the scheduled seal). */
      by: z.enum(['command', 'daily']),
    }),
  },
} as const;
export type SealData = z.infer<(typeof sealEventSchemas)[typeof SEALED]['schema']>;

const PAGE = 5000;

/** Events of the log before the chain existed that `ledger seal --backfill` has not chained yet. */
export class UnchainedLogError extends Error {
  constructor(readonly unchained: number) {
    super(`${unchained} events are not chained yet: run \`ledger seal --backfill\` once first.`);
    this.name = 'UnchainedLogError';
  }
}

/** Reads the whole log in commit order, a page at a time. */
async function* wholeLog(store: EventStore): AsyncGenerator<RecordedEvent[]> {
  let after: Position = START;
  for (;;) {
    const page = await store.readAll({ after, maxCount: PAGE });
    if (page.length === 0) return;
    yield page;
    after = page[page.length - 1]!.position;
  }
}

export interface SealResult {
  digest: string;
  upTo: string;
  streams: number;
  events: number;
  /** The seal's place: its revision on `ledger-seals` and its position in the log. */
  sealNumber: string;
  position: string;
  /** True when the seal of this day was written already (by another instance). */
  alreadySealed?: boolean;
}

/**
 * Appends a seal over the log as it is now: the stored hash of every stream's last event, up to
 * the last readable event. A log with unchained events is refused (`UnchainedLogError`). The
 * daily seal (`daily`: the UTC date) has an id of its own date, so that several instances
 * write it once.
 */
export async function sealLog(
  store: EventStore,
  actor: { id: string; role: string },
  options: { daily?: string; correlationId?: string } = {},
): Promise<SealResult> {
  const heads = new Map<string, StreamHead>();
  let events = 0;
  let unchained = 0;
  let upTo: Position = START;
  for await (const page of wholeLog(store)) {
    for (const e of page) {
      events++;
      if (!e.hash) unchained++;
      else heads.set(e.streamId, { streamId: e.streamId, revision: e.revision, hash: e.hash });
    }
    upTo = page[page.length - 1]!.position;
  }
  if (unchained > 0) throw new UnchainedLogError(unchained);
  const digest = merkleRoot(heads.values());
  const seals = await store.readStream(SEAL_STREAM);
  const last = seals[seals.length - 1];
  const data: SealData = { digest, upTo: formatPosition(upTo), streams: heads.size, events, by: options.daily ? 'daily' : 'command' };
  const event: NewEvent = {
    eventId: options.daily ? deterministicUuid(SEAL_STREAM, options.daily) : randomUUID(),
    type: SEALED,
    version: 1,
    data,
    metadata: {
      actorId: actor.id,
      actorRole: actor.role,
      correlationId: options.correlationId ?? randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
      ...(options.daily ? { reason: `daily seal ${options.daily}` } : {}),
    },
  };
  const result = await store.append(SEAL_STREAM, [event], { expectedRevision: last ? last.revision : 'no_stream' });
  if (result.alreadyStored) {
    const stored = (await store.readStream(SEAL_STREAM, { fromRevision: result.nextExpectedRevision, maxCount: 1 }))[0]!;
    const d = stored.data as SealData;
    return {
      digest: d.digest,
      upTo: d.upTo,
      streams: d.streams,
      events: d.events,
      sealNumber: stored.revision.toString(),
      position: formatPosition(stored.position),
      alreadySealed: true,
    };
  }
  return { ...data, sealNumber: result.nextExpectedRevision.toString(), position: formatPosition(result.position) };
}

/** An event whose stored hash or place does not match the log. */
export interface ChainBreak {
  streamId: string;
  revision: string;
  position: string;
  eventId: string;
  type: string;
  /** `edited`: its content or its previous event differ from what its hash covers; `missing`: revisions before it are not in the log; `unchained`: it has no hash. */
  problem: 'edited' | 'missing' | 'out-of-order' | 'unchained';
  text: string;
}

export interface SealCheck {
  sealNumber: string;
  position: string;
  upTo: string;
  sealedAt: string;
  recorded: string;
  /** The root the log as it is now gives up to `upTo`, from the events' content. */
  recomputed: string;
  ok: boolean;
}

export interface KeptSealCheck {
  digest: string;
  /** `proven`: the log up to that seal gives the digest; `broken`: it does not. */
  result: 'proven' | 'broken';
  seal: SealCheck | null;
  text: string;
}

export interface LogVerification {
  events: number;
  streams: number;
  /** Every break found, at most `MAX_BREAKS`, in log order; `breaks[0]` is the first event that differs. */
  breaks: ChainBreak[];
  breakCount: number;
  unchained: number;
  seals: SealCheck[];
  kept: KeptSealCheck | null;
  ok: boolean;
}

const MAX_BREAKS = 50;

const describe = (e: RecordedEvent) =>
  `${e.streamId} revision ${e.revision} (position ${formatPosition(e.position)}, ${e.type}, event ${e.eventId})`;

/** State of one stream while the log is walked. */
interface Walk {
  revision: bigint;
  /** The stored hash of its last event (what the next one's hash was chained from). */
  stored: string | null;
  /** The hash its content gives, chained from the content before it: what a seal covers. */
  recomputed: string;
}

/**
 * Checks one event against the stream walked so far and moves the walk on; answers the break,
 * if any. Shared by `verifyLog` and the staff event trail (`checkStream`).
 */
function step(walk: Walk | undefined, e: RecordedEvent): { next: Walk; problem: ChainBreak | null } {
  const expected = walk ? walk.revision + 1n : 0n;
  const prevStored = walk ? walk.stored : GENESIS;
  const recomputed = contentHash(e, walk ? walk.recomputed : GENESIS);
  const next: Walk = { revision: e.revision, stored: e.hash ?? null, recomputed };
  const at = {
    streamId: e.streamId,
    revision: e.revision.toString(),
    position: formatPosition(e.position),
    eventId: e.eventId,
    type: e.type,
  };
  if (e.revision > expected)
    return {
      next,
      problem: {
        ...at,
        problem: 'missing',
        text: `${describe(e)}: revision${e.revision - expected > 1n ? `s ${expected} to ${e.revision - 1n}` : ` ${expected}`} of the stream ${e.revision - expected > 1n ? 'are' : 'is'} not in the log before it (deleted or reordered)`,
      },
    };
  if (e.revision < expected)
    return {
      next,
      problem: { ...at, problem: 'out-of-order', text: `${describe(e)}: comes after revision ${expected - 1n} of its stream (reordered)` },
    };
  if (!e.hash) return { next, problem: { ...at, problem: 'unchained', text: `${describe(e)}: has no hash (not chained)` } };
  if (contentHash(e, prevStored ?? GENESIS) !== e.hash)
    return {
      next,
      problem: {
        ...at,
        problem: 'edited',
        text: `${describe(e)}: its content does not give its hash (edited, or an event before it changed)`,
      },
    };
  return { next, problem: null };
}

/** Whether one stream's events (any order) chain: the first break, or null. For the staff event trail. */
export function checkStream(events: RecordedEvent[]): { ok: boolean; events: number; firstBreak: ChainBreak | null } {
  const sorted = [...events].sort((a, b) => (a.revision < b.revision ? -1 : a.revision > b.revision ? 1 : 0));
  let walk: Walk | undefined;
  for (const e of sorted) {
    const { next, problem } = step(walk, e);
    if (problem) return { ok: false, events: sorted.length, firstBreak: problem };
    walk = next;
  }
  return { ok: true, events: sorted.length, firstBreak: null };
}

/**
 * Recomputes every chain and every seal of the log; with `keptDigest` (a seal's digest kept
 * outside the database), says whether the log up to that seal is the one that was sealed.
 */
export async function verifyLog(
  store: EventStore,
  options: { keptDigest?: string; onProgress?: (events: number) => void } = {},
): Promise<LogVerification> {
  const sealEvents = await store.readStream(SEAL_STREAM);
  const pending = sealEvents
    .map((s) => ({ event: s, data: s.data as SealData, upTo: parsePosition((s.data as SealData).upTo) }))
    .sort((a, b) => comparePositions(a.upTo, b.upTo));
  const seals: SealCheck[] = [];
  const walks = new Map<string, Walk>();
  const breaks: ChainBreak[] = [];
  let breakCount = 0;
  let unchained = 0;
  let events = 0;
  let next = 0;
  const closeSeal = () => {
    const s = pending[next++]!;
    const recomputed = merkleRoot([...walks].map(([streamId, w]) => ({ streamId, revision: w.revision, hash: w.recomputed })));
    seals.push({
      sealNumber: s.event.revision.toString(),
      position: formatPosition(s.event.position),
      upTo: s.data.upTo,
      sealedAt: s.event.metadata.occurredAt ?? s.event.recordedAt.toISOString(),
      recorded: s.data.digest,
      recomputed,
      ok: recomputed === s.data.digest,
    });
  };
  for await (const page of wholeLog(store)) {
    for (const e of page) {
      while (next < pending.length && comparePositions(e.position, pending[next]!.upTo) > 0) closeSeal();
      events++;
      const { next: w, problem } = step(walks.get(e.streamId), e);
      walks.set(e.streamId, w);
      if (problem) {
        if (problem.problem === 'unchained') unchained++;
        else {
          breakCount++;
          if (breaks.length < MAX_BREAKS) breaks.push(problem);
        }
      }
    }
    options.onProgress?.(events);
  }
  while (next < pending.length) closeSeal();
  seals.sort((a, b) => (BigInt(a.sealNumber) < BigInt(b.sealNumber) ? -1 : 1));

  let kept: KeptSealCheck | null = null;
  if (options.keptDigest !== undefined) {
    const digest = options.keptDigest.toLowerCase();
    const proving = seals.find((s) => s.recomputed === digest);
    const recording = seals.find((s) => s.recorded === digest);
    if (proving) {
      kept = {
        digest,
        result: 'proven',
        seal: proving,
        text: `the digest kept outside proves the log up to seal ${proving.sealNumber} (sealed ${proving.sealedAt}, events up to ${proving.upTo})`,
      };
    } else if (recording) {
      kept = {
        digest,
        result: 'broken',
        seal: recording,
        text: `seal ${recording.sealNumber} (sealed ${recording.sealedAt}, events up to ${recording.upTo}) recorded the digest kept outside, but the log as it is now gives ${recording.recomputed}: an event up to ${recording.upTo} was changed`,
      };
    } else {
      // The seal that recorded it was rewritten too. The seals whose stored digest is not the
      // one kept outside are all suspect; the break lies at or before the last of them.
      const last = seals[seals.length - 1] ?? null;
      kept = {
        digest,
        result: 'broken',
        seal: last,
        text:
          seals.length === 0
            ? 'the log holds no seal at all: its seals were deleted, so the log cannot be proven by the digest kept outside'
            : `no seal of the log records or gives the digest kept outside: the log and its seals were rewritten (${seals.length} seal${seals.length === 1 ? '' : 's'} now, the last ${last!.sealNumber} sealed ${last!.sealedAt} up to ${last!.upTo}, recording ${last!.recorded}); the events up to the seal that was kept can no longer be trusted`,
      };
    }
  }
  const ok = breakCount === 0 && unchained === 0 && seals.every((s) => s.ok) && (kept === null || kept.result === 'proven');
  return { events, streams: walks.size, breaks, breakCount, unchained, seals, kept, ok };
}
