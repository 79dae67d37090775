/**
 * `npm run bench [-- --quick]`: measures the ledger against the PostgreSQL in DATABASE_URL.
 *
 * Every figure is paired with a baseline measured in the same run, on the same machine
 * and the same database, so that the ratio holds when the machine is noisy. Where a
 * figure and its baseline can be split, they run in alternating rounds (A B B A ...) so
 * that drift (checkpoints, autovacuum, a busy neighbour) lands on both.
 *
 * The run works in a scratch database of its own (`bench_<random>`), dropped at the end,
 * also when the run fails or is interrupted. See docs/performance.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { Decimal } from 'decimal.js';
import { openDatabase, type Database } from '../server/db/database.js';
import { migrateToLatest } from '../migrations/index.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
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
} from '../ledger/event-store/port.js';
import { CommandHandler, toNewEvents, type Actor } from '../ledger/command-handler.js';
import { walletDecider } from '../ledger/wallet/decider.js';
import { decide, FEE_RATE, initialState, WalletError } from '../ledger/wallet/wallet.js';
import { recorded, withdrawal } from '../ledger/wallet/wallet.arbitraries.js';
import { formatAmount, money, Money } from '../ledger/money.js';
import { PROJECTIONS } from '../projections/registry.js';
import { replayProjection, replayProjections, resetReadModels, type ReplayResult } from '../projections/replay.js';
import { foldWalletBalances } from '../projections/read-models.js';
import { seedLedger } from './seed.js';
import { BenchServer, ROUTES, type LoadResult } from './bench-http.js';

// ------------------------------------------------------------------------------ sizes

export type BenchSize = 'full' | 'quick' | 'tiny';
export type Phase = 'appends' | 'replay' | 'contention' | 'http';
export const PHASES: Phase[] = ['appends', 'replay', 'contention', 'http'];

export interface BenchSizes {
  /** Events written one per append (and as many plain insert transactions). */
  singleEvents: number;
  singleWriters: number;
  /** Events written 100 per append (and as many plain autocommit inserts). */
  batchEvents: number;
  batchSize: number;
  batchWriters: number;
  /** Events seeded for the replay. */
  replayEvents: number;
  /** Withdrawals the contention wallet can afford exactly. */
  contentionWithdrawals: number;
  contentionClients: number;
  contentionHandlers: number;
  /** Alternating rounds per append figure. */
  rounds: number;
  /** HTTP phase: autocannon connections, customers created, seconds per timed run and per warm-up. */
  httpConnections: number;
  httpUsers: number;
  httpSeconds: number;
  httpWarmSeconds: number;
}

const COMMON = { singleWriters: 32, batchSize: 100, batchWriters: 8, contentionClients: 64, contentionHandlers: 4, httpConnections: 64, httpUsers: 64 };

export const SIZES: Record<BenchSize, BenchSizes> = {
  full: { ...COMMON, singleEvents: 48_000, batchEvents: 80_000, replayEvents: 1_000_000, contentionWithdrawals: 2_000, rounds: 8, httpSeconds: 10, httpWarmSeconds: 3 },
  quick: { ...COMMON, singleEvents: 16_000, batchEvents: 16_000, replayEvents: 100_000, contentionWithdrawals: 600, rounds: 4, httpSeconds: 3, httpWarmSeconds: 1 },
  // For the smoke test only: proves that every phase runs, measures nothing worth reading.
  tiny: { ...COMMON, singleEvents: 320, batchEvents: 800, replayEvents: 3_000, contentionWithdrawals: 20, rounds: 2, httpUsers: 4, httpConnections: 8, httpSeconds: 1, httpWarmSeconds: 0 },
};

/** The issue's targets. */
export const TARGETS = {
  batchVsPlainInserts: 5,
  singleVsPlainTransactions: 0.7,
  replayEventsPerSecond: 75_000,
  replayVsReadAndFold: 0.3,
  commandsPerSecond: 2_000,
  commandP99Ms: 50,
  commandsVsInsertRoute: 0.4,
  readsVsSelectRoute: 0.5,
  serverRssMB: 250,
};

/**
 * What the issue measured on its own machine, for orientation (2 cores, PostgreSQL 15 on the
 * same machine, load generator on the same cores). The absolute targets above assume that
 * machine; each pair below puts a baseline of this run beside the issue's figure for the same
 * work, so a reader can tell how fast this machine is before reading an absolute pass or fail.
 */
export const ISSUE_MACHINE: readonly { id: string; side: 'value' | 'baseline'; name: string; unit: string; issue: number; note?: (f: Figure) => string }[] = [
  { id: 'http.static', side: 'value', name: 'static route', unit: 'req/s', issue: 64_000 },
  { id: 'http.reads.profile', side: 'baseline', name: 'SELECT-by-key route', unit: 'req/s', issue: 12_300 },
  { id: 'http.commands', side: 'baseline', name: 'one-INSERT-transaction route', unit: 'req/s', issue: 4_900 },
  { id: 'http.commands.p99', side: 'baseline', name: "that route's p99", unit: 'ms', issue: 33 },
  { id: 'replay.all', side: 'baseline', name: 'read and fold with decimal.js', unit: 'events/s', issue: 262_000,
    note: (f) => `the issue read 200,000 events, this run ${Number(f.details?.events).toLocaleString('en-US')}` },
];

export interface AgainstIssue {
  name: string;
  unit: string;
  /** This run's figure. */
  here: number;
  /** The issue's. */
  issue: number;
  /** here / issue */
  ratio: number;
  note?: string;
}

/** This run's baselines beside the issue's measurements (`ISSUE_MACHINE`), for the figures the run has. */
export function againstIssueMachine(figures: readonly Figure[]): AgainstIssue[] {
  const out: AgainstIssue[] = [];
  for (const m of ISSUE_MACHINE) {
    const f = figures.find((x) => x.id === m.id);
    if (!f) continue;
    const here = m.side === 'value' ? f.value : f.baseline.value;
    out.push({ name: m.name, unit: m.unit, here, issue: m.issue, ratio: round(here / m.issue, 2), ...(m.note ? { note: m.note(f) } : {}) });
  }
  return out;
}

// ---------------------------------------------------------------------------- results

export interface Figure {
  id: string;
  group: 'appends' | 'replay' | 'contention' | 'http' | 'process';
  name: string;
  unit: string;
  value: number;
  baseline: { name: string; value: number };
  /** value / baseline.value */
  ratio: number;
  target: { text: string; pass: boolean } | null;
  details?: Record<string, unknown>;
}

export interface NotMeasured {
  id: string;
  name: string;
  reason: string;
}

export interface BenchResults {
  machine: {
    platform: string;
    release: string;
    arch: string;
    cpuModel: string;
    cpus: number;
    totalMemoryMB: number;
    postgres: string;
    postgresSettings: Record<string, string>;
    /** 1-minute load average when the run started and when it ended: other work on the machine. */
    loadAverage: { start: number; max: number; end: number };
  };
  node: string;
  date: string;
  quick: boolean;
  size: BenchSize;
  sizes: BenchSizes;
  phases: Phase[];
  command: string;
  wallSeconds: number;
  setup: Record<string, unknown>;
  figures: Figure[];
  notMeasured: NotMeasured[];
  /** This machine's baselines beside what the issue measured on its machine (`ISSUE_MACHINE`). */
  againstIssueMachine: AgainstIssue[];
  /** Human-readable lines that show the contention results are exact. */
  proofs: string[];
}

const NOT_MEASURED: NotMeasured[] = [];

// ---------------------------------------------------------------------------- helpers

const BENCH_ACTOR: Actor = { id: 'bench', role: 'SYSTEM' };
const now = () => performance.now();
const perSecond = (count: number, ms: number) => (ms > 0 ? (count * 1000) / ms : 0);
const round = (n: number, digits = 0) => Number(n.toFixed(digits));
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs `fn(i)` for i in [0, count) from `writers` concurrent loops; resolves with the elapsed ms. */
async function runWriters(writers: number, count: number, fn: (i: number) => Promise<unknown>): Promise<number> {
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
function ranges(total: number, rounds: number): [number, number][] {
  const out: [number, number][] = [];
  for (let r = 0; r < rounds; r++) out.push([Math.floor((total * r) / rounds), Math.floor((total * (r + 1)) / rounds)]);
  return out;
}

/**
 * Measures a subject and its baseline over the same amount of work in alternating
 * rounds (A B, B A, A B ...), returning the summed milliseconds of each.
 */
async function alternate(
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
async function settle(pool: pg.Pool): Promise<void> {
  await pool.query('checkpoint').catch(() => {});
}

/** A credit as the ledger writes it: one `wallet.transaction-recorded` event, schema-checked. */
function templateEvent(): NewEvent {
  const [event] = decide(recorded('12.345678', 'Complete', 'BTC'), initialState());
  const [newEvent] = toNewEvents(walletDecider, `wallet-${randomUUID()}`, [event!], { actor: BENCH_ACTOR });
  return newEvent!;
}

/** `count` distinct events shaped like `template` (own event id and transaction id each). */
function makeEvents(template: NewEvent, count: number): NewEvent[] {
  const data = template.data as Record<string, unknown>;
  return Array.from({ length: count }, () => ({
    ...template,
    eventId: randomUUID(),
    data: { ...data, transactionId: randomUUID() },
    metadata: { ...template.metadata, correlationId: randomUUID() },
  }));
}

const PLAIN_INSERT = `insert into bench_plain (event_id, stream_id, stream_revision, event_type, event_version, data, metadata)
  values ($1, $2, $3, $4, $5, $6, $7)`;

function plainParams(streamId: string, revision: number, e: NewEvent): unknown[] {
  return [e.eventId, streamId, revision, e.type, e.version, JSON.stringify(e.data), JSON.stringify(e.metadata)];
}

/** Counts the optimistic-concurrency conflicts that reach the command handlers. */
class ConflictCountingStore implements EventStore {
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
  status() {
    return this.inner.status();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

// ----------------------------------------------------------------------------- phases

interface Ctx {
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

async function appendsPhase(ctx: Ctx): Promise<void> {
  const { pool, store, sizes, log } = ctx;
  const template = templateEvent();
  await pool.query('drop table if exists bench_plain');
  // Same columns, defaults (tx_id, recorded_at), an identity of its own and the same indexes.
  await pool.query('create table bench_plain (like events including all)');

  const figure = (
    id: string,
    name: string,
    baselineName: string,
    events: number,
    m: Awaited<ReturnType<typeof alternate>>,
    target: number,
    details: Record<string, unknown>,
  ): Figure => {
    const value = perSecond(events, m.subjectMs);
    const base = perSecond(events, m.baselineMs);
    const roundRatios = m.rounds.map((r) => r.baselineMs / r.subjectMs);
    const ratio = median(roundRatios);
    return {
      id,
      group: 'appends',
      name,
      unit: 'events/s',
      value: round(value),
      baseline: { name: baselineName, value: round(base) },
      ratio: round(ratio, 3),
      target: { text: `>= ${target < 1 ? target.toFixed(2) : target}x`, pass: ratio >= target },
      details: {
        ...details,
        events,
        ratioMethod: 'median of the per-round ratios (each round: the same number of events for both, order alternating)',
        ratioOfTotals: round(value / base, 3),
        roundRatios: roundRatios.map((r) => round(r, 3)),
        rounds: m.rounds,
      },
    };
  };

  // (a) one event per append, 32 writers; baseline BEGIN; INSERT; COMMIT, 32 writers.
  {
    const n = sizes.singleEvents;
    const warm = Math.min(2000, Math.max(32, Math.floor(n / 10)));
    log(`appends: warming up, then ${n.toLocaleString('en-US')} single-event appends and as many insert transactions (${sizes.singleWriters} writers, ${sizes.rounds} rounds)`);
    // Events are made before each timed run, for that run only.
    const subject = async (count: number) => {
      const events = makeEvents(template, count);
      const streams = events.map(() => `wallet-${randomUUID()}`);
      return runWriters(sizes.singleWriters, count, (k) => store.append(streams[k]!, [events[k]!], { expectedRevision: 'no_stream' }));
    };
    const baseline = async (count: number) => {
      const events = makeEvents(template, count);
      const streams = events.map(() => `wallet-${randomUUID()}`);
      return runWriters(sizes.singleWriters, count, async (k) => {
        const client = await pool.connect();
        try {
          await client.query('begin');
          await client.query(PLAIN_INSERT, plainParams(streams[k]!, 0, events[k]!));
          await client.query('commit');
        } finally {
          client.release();
        }
      });
    };
    await subject(warm);
    await baseline(warm);
    await settle(pool);
    const parts = ranges(n, sizes.rounds);
    const m = await alternate(sizes.rounds, (r) => subject(parts[r]![1] - parts[r]![0]), (r) => baseline(parts[r]![1] - parts[r]![0]));
    ctx.figures.push(
      figure(
        'appends.single',
        `Appends, 1 event each, ${sizes.singleWriters} writers`,
        `BEGIN; INSERT 1 row; COMMIT (${sizes.singleWriters} writers)`,
        n,
        m,
        TARGETS.singleVsPlainTransactions,
        { writers: sizes.singleWriters },
      ),
    );
  }

  // (b) 100 events per append (each to its own stream), 8 writers; baseline: the same
  // number of events as autocommit single-row inserts, 8 writers.
  {
    const size = sizes.batchSize;
    const appends = Math.max(sizes.rounds, Math.floor(sizes.batchEvents / size));
    const n = appends * size;
    const warmAppends = Math.max(2, Math.min(20, Math.floor(appends / 20)));
    log(`appends: warming up, then ${n.toLocaleString('en-US')} events in appends of ${size} and as many autocommit inserts (${sizes.batchWriters} writers, ${sizes.rounds} rounds)`);
    const subject = async (count: number) => {
      const events = makeEvents(template, count * size);
      const streams = Array.from({ length: count }, () => `wallet-${randomUUID()}`);
      return runWriters(sizes.batchWriters, count, (a) =>
        store.append(streams[a]!, events.slice(a * size, (a + 1) * size), { expectedRevision: 'no_stream' }),
      );
    };
    // Event i of append a goes to stream a at revision i, exactly as the store writes it.
    const baseline = async (count: number) => {
      const events = makeEvents(template, count * size);
      const streams = Array.from({ length: count }, () => `wallet-${randomUUID()}`);
      return runWriters(sizes.batchWriters, count * size, (j) => pool.query(PLAIN_INSERT, plainParams(streams[Math.floor(j / size)]!, j % size, events[j]!)));
    };
    await subject(warmAppends);
    await baseline(warmAppends);
    await settle(pool);
    const parts = ranges(appends, sizes.rounds);
    const m = await alternate(sizes.rounds, (r) => subject(parts[r]![1] - parts[r]![0]), (r) => baseline(parts[r]![1] - parts[r]![0]));
    ctx.figures.push(
      figure(
        'appends.batch',
        `Appends, ${size} events each, ${sizes.batchWriters} writers`,
        `autocommit 1-row INSERTs (${sizes.batchWriters} writers)`,
        n,
        m,
        TARGETS.batchVsPlainInserts,
        { appends, eventsPerAppend: size, writers: sizes.batchWriters },
      ),
    );
  }
  await pool.query('drop table bench_plain');
}

/** The baseline of the replay: read the log in pages of 5000, fold amounts with decimal.js, write nothing. */
async function readAndFold(store: EventStore, until: Position | null): Promise<{ events: number; ms: number; sums: number }> {
  const sums = new Map<string, Decimal>();
  let after: Position | undefined;
  let events = 0;
  const t0 = now();
  outer: for (;;) {
    const page = await store.readAll({ after, maxCount: 5000 });
    if (page.length === 0) break;
    for (const e of page) {
      if (!until || (e.position.commit > until.commit || (e.position.commit === until.commit && e.position.prepare > until.prepare))) break outer;
      events++;
      const data = e.data as { amount?: string; assetId?: string };
      if (typeof data.amount !== 'string') continue;
      const key = `${e.streamId}/${data.assetId}`;
      const sum = sums.get(key);
      const amount = new Money(data.amount);
      sums.set(key, sum ? sum.plus(amount) : amount);
    }
    after = page[page.length - 1]!.position;
  }
  return { events, ms: now() - t0, sums: sums.size };
}

async function replayPhase(ctx: Ctx): Promise<void> {
  const { database, pool, store, sizes, log } = ctx;
  await pool.query('truncate events, streams');
  log(`replay: seeding ${sizes.replayEvents.toLocaleString('en-US')} events`);
  const seeded = await seedLedger(store, { events: sizes.replayEvents });
  ctx.setup.seed = { events: seeded.events, wallets: seeded.wallets, seconds: round(seeded.seconds, 2), eventsPerSecond: round(seeded.events / seeded.seconds) };
  log(`replay: seeded ${seeded.events.toLocaleString('en-US')} events in ${seeded.seconds.toFixed(1)} s; vacuum analyze`);
  // Sets hint bits and the visibility map once, so neither side pays for it on first read.
  await pool.query('vacuum analyze events');
  await settle(pool);
  const head = await store.headPosition();
  const total = Number((await pool.query<{ n: string }>('select count(*) as n from events')).rows[0]!.n);

  // Warm up: each projection over the first events of the log, and the fold.
  const warmPage = await store.readAll({ maxCount: Math.min(10_000, Math.max(1, Math.floor(total / 10))) });
  const warmUntil = warmPage[warmPage.length - 1]?.position ?? null;
  for (const p of PROJECTIONS) await replayProjection(database.projectionDb, store, p, { until: warmUntil });
  await readAndFold(store, warmUntil);

  log(`replay: read-and-fold baseline, then ${PROJECTIONS.map((p) => p.name).join(', ')} over ${total.toLocaleString('en-US')} events, then the baseline again`);
  const before = await readAndFold(store, head);
  const results: ReplayResult[] = [];
  for (const p of PROJECTIONS) {
    const r = await replayProjection(database.projectionDb, store, p, { until: head });
    log(`replay: ${r.name}: ${r.events.toLocaleString('en-US')} events in ${r.seconds.toFixed(2)} s`);
    results.push(r);
  }
  // What `ledger replay all` runs: one pass over the log feeding every read model.
  const [onePass] = await replayProjections(database.projectionDb, store, PROJECTIONS, { until: head });
  log(`replay: all ${PROJECTIONS.length} read models in one pass: ${onePass!.events.toLocaleString('en-US')} events in ${onePass!.seconds.toFixed(2)} s`);
  const after = await readAndFold(store, head);
  if (before.events !== total || after.events !== total) throw new Error(`the baseline read ${before.events}/${after.events} of ${total} events`);
  const baseMs = (before.ms + after.ms) / 2;
  const base = perSecond(total, baseMs);
  const baseline = { name: 'read pages of 5000 + decimal.js fold', value: round(base) };
  const targetText = `>= ${TARGETS.replayEventsPerSecond.toLocaleString('en-US')}/s and >= ${TARGETS.replayVsReadAndFold.toFixed(2)}x`;
  const target = (value: number) => ({
    text: targetText,
    pass: value >= TARGETS.replayEventsPerSecond && value / base >= TARGETS.replayVsReadAndFold,
  });
  const baselineDetails = { baselineRunsMs: [round(before.ms, 1), round(after.ms, 1)], sums: before.sums };
  for (const r of results) {
    if (r.events !== total) throw new Error(`replay of ${r.name} read ${r.events} of ${total} events`);
    const value = perSecond(r.events, r.seconds * 1000);
    ctx.figures.push({
      id: `replay.${r.name}`,
      group: 'replay',
      name: `Replay ${r.name} (${total.toLocaleString('en-US')} events)`,
      unit: 'events/s',
      value: round(value),
      baseline,
      ratio: round(value / base, 3),
      target: target(value),
      details: { events: r.events, seconds: round(r.seconds, 3), ...baselineDetails },
    });
  }
  if (onePass!.events !== total) throw new Error(`the one-pass replay read ${onePass!.events} of ${total} events`);
  const allSeconds = onePass!.seconds;
  const all = perSecond(total, allSeconds * 1000);
  ctx.figures.push({
    id: 'replay.all',
    group: 'replay',
    name: `Replay all ${PROJECTIONS.length} read models, one pass (ledger replay all)`,
    unit: 'events/s',
    value: round(all),
    baseline,
    ratio: round(all / base, 3),
    target: target(all),
    details: {
      events: total,
      seconds: round(allSeconds, 3),
      separateReplaysSeconds: round(results.reduce((sum, r) => sum + r.seconds, 0), 3),
      ...baselineDetails,
    },
  });
}

interface ContentionRun {
  successes: number;
  insufficient: number;
  conflicts: number;
  gaveUp: number;
  ms: number;
  userId: string;
  credit: Decimal;
  expected: Decimal;
}

/**
 * One wallet credited with exactly enough for `k` withdrawals of 1 (1.01 with the fee)
 * plus 0.005, then `clients` loops that withdraw 1 through `handlers` command handlers
 * until the wallet refuses them.
 */
async function contend(store: EventStore, k: number, clients: number, handlers: number): Promise<ContentionRun> {
  const cost = money(1).plus(money(1).times(FEE_RATE));
  const credit = cost.times(k).plus('0.005');
  const expected = credit.minus(cost.times(k));
  const userId = randomUUID();
  await new CommandHandler(store).handle(walletDecider, userId, recorded(formatAmount(credit), 'Complete', 'BTC'), { actor: BENCH_ACTOR });
  const counting = new ConflictCountingStore(store);
  // A handler that loses the race re-reads the stream and tries again; with 4 handlers it
  // can lose several times in a row, so the limit is high and any give-up is counted.
  const pool = Array.from({ length: handlers }, () => new CommandHandler(counting, { maxRetries: 10_000 }));
  let successes = 0;
  let insufficient = 0;
  let gaveUp = 0;
  const t0 = now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const handler = pool[c % handlers]!;
      for (;;) {
        try {
          await handler.handle(walletDecider, userId, withdrawal('1', 'BTC'), { actor: { id: userId, role: 'USER' } });
          successes++;
        } catch (err) {
          if (err instanceof WalletError && err.code === 'insufficient_balance') {
            insufficient++;
            return;
          }
          if (err instanceof WrongExpectedVersionError) {
            gaveUp++;
            continue;
          }
          throw err;
        }
      }
    }),
  );
  return { successes, insufficient, conflicts: counting.conflicts, gaveUp, ms: now() - t0, userId, credit, expected };
}

async function contentionPhase(ctx: Ctx): Promise<void> {
  const { pool, store, sizes, log } = ctx;
  await pool.query('truncate events, streams');
  const k = sizes.contentionWithdrawals;
  log(`contention: warming up, then ${k} withdrawals by 1 client, by ${sizes.contentionClients} clients through 1 handler and through ${sizes.contentionHandlers} handlers`);
  await contend(store, Math.min(20, k), 4, 2);
  await settle(pool);
  const baselineRun = await contend(store, k, 1, 1);
  const variants = [
    { id: 'contention.sharedHandler', handlers: 1, label: `1 shared CommandHandler` },
    { id: 'contention.separateHandlers', handlers: sizes.contentionHandlers, label: `${sizes.contentionHandlers} CommandHandlers` },
  ];
  const runs: { id: string; label: string; handlers: number; run: ContentionRun }[] = [];
  for (const v of variants) runs.push({ ...v, run: await contend(store, k, sizes.contentionClients, v.handlers) });

  // The proof reads the balances back by folding the log with the decider's own evolve.
  const balances = await foldWalletBalances(store);
  const base = perSecond(baselineRun.successes, baselineRun.ms);
  const check = (label: string, run: ContentionRun, clients: number) => {
    const row = balances.get(`${run.userId}/BTC`);
    const available = row ? money(row.balance).plus(row.pending_withdrawals) : null;
    const exactBalance = available !== null && available.eq(run.expected) && formatAmount(available) === formatAmount(run.expected);
    const exactCount = run.successes === k;
    const allRefused = run.insufficient === clients;
    const ok = exactBalance && exactCount && allRefused && run.gaveUp === 0;
    ctx.proofs.push(
      `${ok ? 'exact' : 'NOT EXACT'}: ${label}: credited ${formatAmount(run.credit)} BTC, ${run.successes} of ${k} withdrawals of 1 BTC (1.01 with fee) accepted, ` +
        `${run.insufficient}/${clients} clients refused for insufficient balance, ${run.conflicts} conflicts retried, ${run.gaveUp} gave up; ` +
        `fold of the log: balance ${row?.balance ?? '?'} + pending withdrawals ${row?.pending_withdrawals ?? '?'} = available ${available ? formatAmount(available) : '?'}, ` +
        `expected ${formatAmount(run.credit)} - ${k} x 1.01 = ${formatAmount(run.expected)}`,
    );
    return { ok, available: available ? formatAmount(available) : null, exactBalance, exactCount, allRefused };
  };
  check(`1 client, 1 handler (baseline)`, baselineRun, 1);
  for (const { id, label, handlers, run } of runs) {
    const proof = check(`${sizes.contentionClients} clients, ${label}`, run, sizes.contentionClients);
    const value = perSecond(run.successes, run.ms);
    ctx.figures.push({
      id,
      group: 'contention',
      name: `${sizes.contentionClients} clients withdrawing, ${label}`,
      unit: 'withdrawals/s',
      value: round(value, 1),
      baseline: { name: '1 client, same withdrawals, 1 handler', value: round(base, 1) },
      ratio: round(value / base, 3),
      target: { text: `exact: ${k} accepted, available ${formatAmount(run.expected)}`, pass: proof.ok },
      details: {
        withdrawals: k,
        clients: sizes.contentionClients,
        handlers,
        accepted: run.successes,
        refused: run.insufficient,
        conflictsRetried: run.conflicts,
        gaveUp: run.gaveUp,
        seconds: round(run.ms / 1000, 3),
        credit: formatAmount(run.credit),
        expectedAvailable: formatAmount(run.expected),
        foldedAvailable: proof.available,
      },
    });
  }
}

/**
 * The app through HTTP, driven by autocannon from this process, next to baseline routes on
 * the same Fastify instance and pool (scripts/bench-server.ts). Each pair warms up both
 * sides, then times them in two rounds in A B / B A order; the ratio is the mean of the
 * two rounds' ratios.
 */
async function httpPhase(ctx: Ctx): Promise<void> {
  const { pool, sizes, log } = ctx;
  await pool.query('truncate events, streams');
  await resetReadModels(ctx.database.db, PROJECTIONS);
  const server = await BenchServer.start(ctx.databaseUrl, log);
  try {
    log(`http: creating ${sizes.httpUsers} customers with a card and 12 transactions each`);
    const users = await server.setup(sizes.httpUsers);
    const idle = await server.rss();
    const c = sizes.httpConnections;
    const runs: Record<string, { subject: LoadResult[]; baseline: LoadResult[] }> = {};
    const pair = async (id: string, subject: keyof typeof ROUTES, baseline: keyof typeof ROUTES, during?: () => void) => {
      log(`http: ${subject} against ${baseline}, ${c} connections, 2 rounds of ${sizes.httpSeconds} s each (after ${sizes.httpWarmSeconds} s warm-up each)`);
      if (sizes.httpWarmSeconds > 0) {
        await server.load(ROUTES[subject], users, c, sizes.httpWarmSeconds);
        await server.load(ROUTES[baseline], users, c, sizes.httpWarmSeconds);
      }
      const r = { subject: [] as LoadResult[], baseline: [] as LoadResult[] };
      for (let round = 0; round < 2; round++) {
        const order = round === 0 ? (['subject', 'baseline'] as const) : (['baseline', 'subject'] as const);
        for (const side of order) {
          during?.();
          r[side].push(await server.load(ROUTES[side === 'subject' ? subject : baseline], users, c, sizes.httpSeconds));
        }
      }
      runs[id] = r;
      return r;
    };

    // Commands, with the server's RSS sampled every 250 ms while they run.
    let peakUnderLoad = 0;
    /** V8's share of the RSS at the peak sample: heap in use, heap reserved, and buffers outside it. */
    let atPeak = { heapUsedMB: 0, heapTotalMB: 0, externalMB: 0 };
    let sampling = false;
    const sampler = setInterval(() => {
      if (!sampling) return;
      server.rss().then((m) => {
        if (m.rssMB > peakUnderLoad) {
          peakUnderLoad = m.rssMB;
          atPeak = { heapUsedMB: round(m.heapUsedMB, 1), heapTotalMB: round(m.heapTotalMB, 1), externalMB: round(m.externalMB, 1) };
        }
      }, () => {});
    }, 250);
    let commands;
    try {
      commands = await pair('commands', 'command', 'insert', () => (sampling = true));
    } finally {
      sampling = false;
      clearInterval(sampler);
    }
    const profile = await pair('profile', 'profile', 'select');
    const transactions = await pair('transactions', 'transactions', 'select');
    const staticRoute = await pair('static', 'static', 'select');

    const sum = (xs: LoadResult[]) => ({
      rps: xs.reduce((a, x) => a + x.rps, 0) / xs.length,
      p50: Math.max(...xs.map((x) => x.p50)),
      p99: Math.max(...xs.map((x) => x.p99)),
      requests: xs.reduce((a, x) => a + x.requests, 0),
      non2xx: xs.reduce((a, x) => a + x.non2xx, 0),
      errors: xs.reduce((a, x) => a + x.errors, 0),
    });
    const figure = (
      id: string,
      name: string,
      unit: string,
      r: { subject: LoadResult[]; baseline: LoadResult[] },
      baselineName: string,
      target: ((value: number, ratio: number) => { text: string; pass: boolean }) | null,
    ): Figure => {
      const s = sum(r.subject);
      const b = sum(r.baseline);
      // A round where either side completed nothing (a stalled machine) has no ratio.
      const roundRatios = r.subject.map((x, i) => x.rps / r.baseline[i]!.rps).filter((x) => Number.isFinite(x) && x > 0);
      const ratio = roundRatios.length ? roundRatios.reduce((a, x) => a + x, 0) / roundRatios.length : s.rps / Math.max(b.rps, 1e-9);
      const failed = s.non2xx + s.errors + b.non2xx + b.errors;
      const t = target?.(s.rps, ratio) ?? null;
      return {
        id,
        group: 'http',
        name,
        unit,
        value: round(s.rps),
        baseline: { name: baselineName, value: round(b.rps) },
        ratio: round(ratio, 3),
        target: t && { text: t.text, pass: t.pass && failed === 0 },
        details: {
          connections: c,
          seconds: sizes.httpSeconds,
          subject: { p50Ms: s.p50, p99Ms: s.p99, requests: s.requests, non2xx: s.non2xx, errors: s.errors },
          baseline: { p50Ms: b.p50, p99Ms: b.p99, requests: b.requests, non2xx: b.non2xx, errors: b.errors },
          roundRatios: roundRatios.map((x) => round(x, 3)),
          ratioOfTotals: round(s.rps / b.rps, 3),
          rounds: r,
        },
      };
    };
    const cmd = figure('http.commands', `Commands: create-deposit-request, ${c} connections`, 'commands/s', commands, 'BEGIN; INSERT; COMMIT route', (v, ratio) => ({
      text: `>= ${TARGETS.commandsPerSecond.toLocaleString('en-US')}/s and >= ${TARGETS.commandsVsInsertRoute.toFixed(2)}x`,
      pass: v >= TARGETS.commandsPerSecond && ratio >= TARGETS.commandsVsInsertRoute,
    }));
    const cs = sum(commands.subject);
    const cb = sum(commands.baseline);
    ctx.figures.push(
      cmd,
      {
        id: 'http.commands.p99',
        group: 'http',
        name: `Commands: p99 latency (p50 ${cs.p50} ms)`,
        unit: 'ms',
        value: cs.p99,
        baseline: { name: `INSERT route p99 (p50 ${cb.p50} ms)`, value: cb.p99 },
        ratio: round(cs.p99 / Math.max(cb.p99, 1), 3),
        target: { text: `< ${TARGETS.commandP99Ms} ms`, pass: cs.requests > 0 && cs.p99 < TARGETS.commandP99Ms },
      },
      figure('http.reads.profile', `Reads: get-user-profile-details, ${c} connections`, 'req/s', profile, 'SELECT-by-key route', (_v, ratio) => ({
        text: `>= ${TARGETS.readsVsSelectRoute.toFixed(2)}x`,
        pass: ratio >= TARGETS.readsVsSelectRoute,
      })),
      figure('http.reads.transactions', `Reads: transactions page, ${c} connections`, 'req/s', transactions, 'SELECT-by-key route', (_v, ratio) => ({
        text: `>= ${TARGETS.readsVsSelectRoute.toFixed(2)}x`,
        pass: ratio >= TARGETS.readsVsSelectRoute,
      })),
      figure('http.static', `Static route (ceiling of the setup), ${c} connections`, 'req/s', staticRoute, 'SELECT-by-key route', null),
    );
    const rss = await server.rss();
    ctx.figures.push({
      id: 'http.serverRss',
      group: 'http',
      name: 'Server RSS under the command load',
      unit: 'MB',
      value: round(peakUnderLoad, 1),
      baseline: { name: 'server RSS idle, after setup', value: round(idle.rssMB, 1) },
      ratio: round(peakUnderLoad / idle.rssMB, 3),
      target: { text: `< ${TARGETS.serverRssMB} MB`, pass: peakUnderLoad > 0 && peakUnderLoad < TARGETS.serverRssMB },
      details: { peakRssMBWholeRun: round(rss.peakRssMB, 1), rssMBAtEnd: round(rss.rssMB, 1), atPeak, idleHeapTotalMB: round(idle.heapTotalMB, 1) },
    });
  } finally {
    await server.stop();
  }
}

// ------------------------------------------------------------------------------- run

export interface BenchOptions {
  databaseUrl: string;
  size?: BenchSize;
  /** Overrides of the chosen size's numbers. */
  sizes?: Partial<BenchSizes>;
  phases?: Phase[];
  /** Where to write the JSON results; null: nowhere. */
  outPath?: string | null;
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
  command?: string;
}

/** Set while a run holds a scratch database, so that a signal handler can drop it. */
let activeCleanup: (() => Promise<void>) | null = null;

async function machineInfo(pool: pg.Pool): Promise<BenchResults['machine']> {
  const cpus = os.cpus();
  const version = (await pool.query<{ v: string }>('select version() as v')).rows[0]!.v;
  const { rows } = await pool.query<{ name: string; setting: string; unit: string | null }>(
    `select name, setting, unit from pg_settings
     where name in ('shared_buffers', 'synchronous_commit', 'fsync', 'wal_level', 'max_connections', 'commit_delay', 'work_mem')`,
  );
  return {
    platform: os.platform(),
    release: os.release(),
    arch: os.arch(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpus: cpus.length,
    totalMemoryMB: Math.round(os.totalmem() / 2 ** 20),
    postgres: version,
    postgresSettings: Object.fromEntries(rows.map((r) => [r.name, r.unit ? `${r.setting} (${r.unit})` : r.setting])),
    loadAverage: { start: round(os.loadavg()[0]!, 2), max: 0, end: 0 },
  };
}

export async function runBench(opts: BenchOptions): Promise<BenchResults> {
  const size = opts.size ?? 'full';
  const sizes = { ...SIZES[size], ...opts.sizes };
  const phases = opts.phases ?? PHASES;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const startRss = process.resourceUsage().maxRSS;
  const t0 = now();

  const name = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: opts.databaseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(opts.databaseUrl);
  url.pathname = `/${name}`;
  let database: Database | null = null;
  // One drop, shared by the normal end, a failure and a signal: each waits for it.
  let dropping: Promise<void> | null = null;
  const cleanup = () =>
    (dropping ??= (async () => {
      await database?.close().catch(() => {});
      const c = new pg.Client({ connectionString: opts.databaseUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    })());
  activeCleanup = cleanup;
  let sampler: NodeJS.Timeout | undefined;
  try {
    log(`bench: scratch database ${name}`);
    database = await openDatabase({ databaseUrl: url.toString(), poolSize: Math.max(sizes.singleWriters, sizes.contentionHandlers) + 4 });
    await migrateToLatest(database.db);
    const pool = database.pool!;
    const store = new PostgresEventStore(database.db);
    const ctx: Ctx = { databaseUrl: url.toString(), database, pool, store, sizes, log, figures: [], proofs: [], setup: { database: name } };
    const machine = await machineInfo(pool);
    let maxLoad = machine.loadAverage.start;
    sampler = setInterval(() => (maxLoad = Math.max(maxLoad, os.loadavg()[0]!)), 5000);
    sampler.unref();
    // Contention runs before the replay's seed so that its proof folds a short log.
    const peakRssMB: Record<string, number> = {};
    ctx.setup.peakRssMBAfterPhase = peakRssMB;
    for (const [phase, run] of [['appends', appendsPhase], ['contention', contentionPhase], ['http', httpPhase], ['replay', replayPhase]] as const) {
      if (!phases.includes(phase)) continue;
      await run(ctx);
      peakRssMB[phase] = round(process.resourceUsage().maxRSS / 1024, 1);
    }

    const peak = process.resourceUsage().maxRSS;
    ctx.figures.push({
      id: 'process.peakRss',
      group: 'process',
      name: 'Bench process peak RSS',
      unit: 'MB',
      value: round(peak / 1024, 1),
      baseline: { name: 'peak RSS at start (after imports)', value: round(startRss / 1024, 1) },
      ratio: round(peak / startRss, 3),
      target: null,
    });
    clearInterval(sampler);
    machine.loadAverage.end = round(os.loadavg()[0]!, 2);
    machine.loadAverage.max = round(Math.max(maxLoad, machine.loadAverage.end), 2);
    const results: BenchResults = {
      machine,
      node: process.version,
      date: new Date().toISOString(),
      quick: size !== 'full',
      size,
      sizes,
      phases,
      command: opts.command ?? `runBench(${size})`,
      wallSeconds: round((now() - t0) / 1000, 1),
      setup: ctx.setup,
      figures: ctx.figures,
      notMeasured: NOT_MEASURED,
      againstIssueMachine: againstIssueMachine(ctx.figures),
      proofs: ctx.proofs,
    };
    if (opts.outPath) {
      fs.mkdirSync(path.dirname(opts.outPath), { recursive: true });
      fs.writeFileSync(opts.outPath, `${JSON.stringify(results, null, 2)}\n`);
    }
    return results;
  } finally {
    clearInterval(sampler);
    await cleanup();
    activeCleanup = null;
  }
}

// ----------------------------------------------------------------------------- output

function formatValue(value: number, unit: string): string {
  const digits = value >= 100 ? 0 : 1;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })} ${unit}`;
}

/** The table printed to stdout: figure, value, baseline, ratio, target, pass/fail. */
export function formatTable(results: BenchResults): string {
  const header = ['figure', 'value', 'baseline', 'ratio', 'target', 'result'];
  const rows: string[][] = results.figures.map((f) => [
    f.name,
    formatValue(f.value, f.unit),
    `${formatValue(f.baseline.value, f.unit)}  (${f.baseline.name})`,
    `${f.ratio.toFixed(2)}x`,
    f.target?.text ?? '-',
    f.target ? (f.target.pass ? 'pass' : 'FAIL') : '-',
  ]);
  for (const m of results.notMeasured) rows.push([m.name, m.reason, '-', '-', '-', '-']);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const out = [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
  const info = [
    `${results.size} run, ${results.wallSeconds} s, ${results.date}, node ${results.node}, ${results.machine.cpus} x ${results.machine.cpuModel}, ` +
      `${results.machine.postgres.split(' on ')[0]}, 1-min load average ${results.machine.loadAverage.start} at start, ${results.machine.loadAverage.max} max, ${results.machine.loadAverage.end} at end`,
  ];
  for (const f of results.figures) {
    const perRound = f.details?.roundRatios as number[] | undefined;
    if (perRound) info.push(`${f.id}: ratio = median of ${perRound.length} paired rounds (${perRound.map((r) => r.toFixed(2)).join(' ')}); ratio of the totals ${String(f.details?.ratioOfTotals)}`);
  }
  if (results.againstIssueMachine.length > 0) {
    const pairs = results.againstIssueMachine.map(
      (a) => `${a.name} ${formatValue(a.here, a.unit)} against ${formatValue(a.issue, a.unit)} (${a.ratio.toFixed(2)}x${a.note ? `; ${a.note}` : ''})`,
    );
    info.push(`this machine against the issue's, whose speed the absolute targets assume: ${pairs.join(', ')}`);
  }
  const seed = results.setup.seed as { events: number; seconds: number; eventsPerSecond: number } | undefined;
  if (seed) info.push(`seed: ${seed.events.toLocaleString('en-US')} events in ${seed.seconds} s (${seed.eventsPerSecond.toLocaleString('en-US')} events/s)`);
  return [...out, '', ...info, ...results.proofs].join('\n');
}

// ------------------------------------------------------------------------------- cli

const HELP = `Usage: npm run bench [-- --quick] [--only appends,replay,contention,http] [--out FILE]

Measures appends, replay, contention and the HTTP API (autocannon) against the PostgreSQL in DATABASE_URL, each
next to a baseline measured in the same run. Creates and drops a scratch database
(bench_<random>) on that server. Writes bench/results.json and prints a table.

  --quick   smaller sizes (100,000 replay events), a few minutes at most
  --only    run only these phases (comma-separated)
  --out     where to write the JSON results (default bench/results.json)`;

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean' },
      tiny: { type: 'boolean' },
      only: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error('bench: DATABASE_URL is not set. Point it at a PostgreSQL server where this user may create databases, e.g.\n' +
      '  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- --quick');
    return 2;
  }
  const phases = values.only ? values.only.split(',').map((p) => p.trim()) : PHASES;
  const unknown = phases.filter((p) => !(PHASES as string[]).includes(p));
  if (unknown.length) {
    console.error(`bench: unknown phase ${unknown.join(', ')}; known: ${PHASES.join(', ')}`);
    return 2;
  }
  const size: BenchSize = values.tiny ? 'tiny' : values.quick ? 'quick' : 'full';
  const outPath = path.resolve(values.out ?? 'bench/results.json');
  const results = await runBench({ databaseUrl, size, phases: phases as Phase[], outPath, command: ['npm run bench --', ...argv].join(' ') });
  console.log(formatTable(results));
  const shown = path.relative(process.cwd(), outPath);
  console.log(`\nwrote ${shown.startsWith('..') ? outPath : shown}`);
  // Performance targets are reported, not enforced; an inexact balance is a bug.
  return results.figures.some((f) => f.group === 'contention' && !f.target?.pass) ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true;
    process.stderr.write(`bench: ${signal}, dropping the scratch database\n`);
    void (activeCleanup?.() ?? Promise.resolve()).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      // The signal handler exits once the scratch database is gone.
      if (interrupted) return;
      if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
        console.error((err as Error).message);
        process.exit(2);
      }
      console.error(err);
      process.exit(1);
    },
  );
}
