/** Replaying the read models against reading and folding the log (docs/performance.md). */
import type { Decimal } from 'decimal.js';
import type { EventStore, Position } from '../../ledger/event-store/port.js';
import { Money } from '../../ledger/money.js';
import { PROJECTIONS } from '../../projections/registry.js';
import { replayProjection, replayProjections, type ReplayResult } from '../../projections/replay.js';
import { seedLedger } from '../seed.js';
import { TARGETS } from './model.js';
import { now, perSecond, round, settle, type Ctx } from './helpers.js';

/** The baseline of the replay: read the log in pages of 5000, fold amounts with decimal.js, write nothing. */
export async function readAndFold(store: EventStore, until: Position | null): Promise<{ events: number; ms: number; sums: number }> {
  const sums = new Map<string, Decimal>();
  let after: Position | undefined;
  let events = 0;
  const t0 = now();
  outer: for (;;) {
    const page = await store.readAll({ after, maxCount: 5000 });
    if (page.length === 0) break;
    for (const e of page) {
      if (!until || e.position.commit > until.commit || (e.position.commit === until.commit && e.position.prepare > until.prepare))
        break outer;
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

export async function replayPhase(ctx: Ctx): Promise<void> {
  const { database, pool, store, sizes, log } = ctx;
  await pool.query('truncate events, streams');
  log(`replay: seeding ${sizes.replayEvents.toLocaleString('en-US')} events`);
  const seeded = await seedLedger(store, { events: sizes.replayEvents });
  ctx.setup.seed = {
    events: seeded.events,
    wallets: seeded.wallets,
    seconds: round(seeded.seconds, 2),
    eventsPerSecond: round(seeded.events / seeded.seconds),
  };
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

  log(
    `replay: read-and-fold baseline, then ${PROJECTIONS.map((p) => p.name).join(', ')} over ${total.toLocaleString('en-US')} events, then the baseline again`,
  );
  const before = await readAndFold(store, head);
  const results: ReplayResult[] = [];
  for (const p of PROJECTIONS) {
    const r = await replayProjection(database.projectionDb, store, p, { until: head });
    log(`replay: ${r.name}: ${r.events.toLocaleString('en-US')} events in ${r.seconds.toFixed(2)} s`);
    results.push(r);
  }
  // What `ledger replay all` runs: one pass over the log feeding every read model.
  const [onePass] = await replayProjections(database.projectionDb, store, PROJECTIONS, { until: head });
  log(
    `replay: all ${PROJECTIONS.length} read models in one pass: ${onePass!.events.toLocaleString('en-US')} events in ${onePass!.seconds.toFixed(2)} s`,
  );
  const after = await readAndFold(store, head);
  if (before.events !== total || after.events !== total)
    throw new Error(`the baseline read ${before.events}/${after.events} of ${total} events`);
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
      separateReplaysSeconds: round(
        results.reduce((sum, r) => sum + r.seconds, 0),
        3,
      ),
      ...baselineDetails,
    },
  });
}
