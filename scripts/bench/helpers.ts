/** What the benchmark's phases share: timing, rounds, event builders and the phase context. */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Database } from '../../server/db/database.js';
import type { PostgresEventStore } from '../../ledger/event-store/postgres.js';
import {
  WrongExpectedVersionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
} from '../../ledger/event-store/port.js';
import { toNewEvents, type Actor } from '../../ledger/command-handler.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { decide, initialState } from '../../ledger/wallet/wallet.js';
import { recorded } from '../../ledger/wallet/wallet.arbitraries.js';
import type { BenchSizes, Figure } from './model.js';

export const BENCH_ACTOR: Actor = { id: 'bench', role: 'SYSTEM' };
export const now = () => performance.now();
export const perSecond = (count: number, ms: number) => (ms > 0 ? (count * 1000) / ms : 0);
export const round = (n: number, digits = 0) => Number(n.toFixed(digits));
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs `fn(i)` for i in [0, count) from `writers` concurrent loops; resolves with the elapsed ms. */
export async function runWriters(writers: number, count: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const t0 = now();
  await Promise.all(
    Array.from({ length: Math.min(writers, count) }, async () => {
      for (let i = next++; i < count; i = next++) await fn(i);
    }),
  );
  return now() - t0;
}

/** Splits [0, total) into `rounds` contiguous ranges. */
export function ranges(total: number, rounds: number): [number, number][] {
  const out: [number, number][] = [];
  for (let r = 0; r < rounds; r++) out.push([Math.floor((total * r) / rounds), Math.floor((total * (r + 1)) / rounds)]);
  return out;
}

/**
 * Measures a subject and its baseline over the same amount of work in alternating
 * rounds (A B, B A, A B ...), returning the summed milliseconds of each.
 */
export async function alternate(
  rounds: number,
  subject: (round: number) => Promise<number>,
  baseline: (round: number) => Promise<number>,
): Promise<{ subjectMs: number; baselineMs: number; rounds: { subjectMs: number; baselineMs: number }[] }> {
  let subjectMs = 0;
  let baselineMs = 0;
  const perRound: { subjectMs: number; baselineMs: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    let s: number;
    let b: number;
    if (r % 2 === 0) {
      s = await subject(r);
      b = await baseline(r);
    } else {
      b = await baseline(r);
      s = await subject(r);
    }
    subjectMs += s;
    baselineMs += b;
    perRound.push({ subjectMs: round(s, 1), baselineMs: round(b, 1) });
  }
  return { subjectMs, baselineMs, rounds: perRound };
}

/** Best effort: flushes dirty buffers so that a phase does not pay for the previous one's writes. */
export async function settle(pool: pg.Pool): Promise<void> {
  await pool.query('checkpoint').catch(() => {});
}

/** A credit as the ledger writes it: one `wallet.transaction-recorded` event, schema-checked. */
export function templateEvent(): NewEvent {
  const [event] = decide(recorded('12.345678', 'Complete', 'BTC'), initialState());
  const [newEvent] = toNewEvents(walletDecider, `wallet-${randomUUID()}`, [event!], { actor: BENCH_ACTOR });
  return newEvent!;
}

/** `count` distinct events shaped like `template` (own event id and transaction id each). */
export function makeEvents(template: NewEvent, count: number): NewEvent[] {
  const data = template.data as Record<string, unknown>;
  return Array.from({ length: count }, () => ({
    ...template,
    eventId: randomUUID(),
    data: { ...data, transactionId: randomUUID() },
    metadata: { ...template.metadata, correlationId: randomUUID() },
  }));
}

export const PLAIN_INSERT = `insert into bench_plain (event_id, stream_id, stream_revision, event_type, event_version, data, metadata)
  values ($1, $2, $3, $4, $5, $6, $7)`;

export function plainParams(streamId: string, revision: number, e: NewEvent): unknown[] {
  return [e.eventId, streamId, revision, e.type, e.version, JSON.stringify(e.data), JSON.stringify(e.metadata)];
}

/** Counts the optimistic-concurrency conflicts that reach the command handlers. */
export class ConflictCountingStore implements EventStore {
  readonly name: EventStore['name'];
  conflicts = 0;
  constructor(private readonly inner: EventStore) {
    this.name = inner.name;
  }
  async append(streamId: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    try {
      return await this.inner.append(streamId, events, options);
    } catch (err) {
      if (err instanceof WrongExpectedVersionError) this.conflicts++;
      throw err;
    }
  }
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.inner.readStream(streamId, options);
  }
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }
  subscribeAll(options?: { after?: Position }) {
    return this.inner.subscribeAll(options);
  }
  headPosition(): Promise<Position | null> {
    return this.inner.headPosition();
  }
  committedHead(): Promise<Position | null> {
    return this.inner.committedHead();
  }
  status() {
    return this.inner.status();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

export interface Ctx {
  /** The scratch database's URL (the HTTP phase's server connects to it). */
  databaseUrl: string;
  database: Database;
  pool: pg.Pool;
  store: PostgresEventStore;
  sizes: BenchSizes;
  log: (line: string) => void;
  figures: Figure[];
  proofs: string[];
  setup: Record<string, unknown>;
}
