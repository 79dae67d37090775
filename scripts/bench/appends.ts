/** Appends, one event and 100 events each, against plain INSERTs (docs/performance.md). */
import { randomUUID } from 'node:crypto';
import { TARGETS, type Figure } from './model.js';
import {
  alternate,
  makeEvents,
  median,
  perSecond,
  PLAIN_INSERT,
  plainParams,
  ranges,
  round,
  runWriters,
  settle,
  templateEvent,
  type Ctx,
} from './helpers.js';

export async function appendsPhase(ctx: Ctx): Promise<void> {
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
    log(
      `appends: warming up, then ${n.toLocaleString('en-US')} single-event appends and as many insert transactions (${sizes.singleWriters} writers, ${sizes.rounds} rounds)`,
    );
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
    const m = await alternate(
      sizes.rounds,
      (r) => subject(parts[r]![1] - parts[r]![0]),
      (r) => baseline(parts[r]![1] - parts[r]![0]),
    );
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
    log(
      `appends: warming up, then ${n.toLocaleString('en-US')} events in appends of ${size} and as many autocommit inserts (${sizes.batchWriters} writers, ${sizes.rounds} rounds)`,
    );
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
      return runWriters(sizes.batchWriters, count * size, (j) =>
        pool.query(PLAIN_INSERT, plainParams(streams[Math.floor(j / size)]!, j % size, events[j]!)),
      );
    };
    await subject(warmAppends);
    await baseline(warmAppends);
    await settle(pool);
    const parts = ranges(appends, sizes.rounds);
    const m = await alternate(
      sizes.rounds,
      (r) => subject(parts[r]![1] - parts[r]![0]),
      (r) => baseline(parts[r]![1] - parts[r]![0]),
    );
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
