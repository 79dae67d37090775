/**
 * How the cost grows with the log (issue 33): the same figures at each log size, each as a
 * ratio to the first size (10^5 events) in the same run. See docs/performance.md.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { CommandHandler } from '../../ledger/command-handler.js';
import type { SnapshotOptions } from '../../ledger/snapshots/snapshot.js';
import { PostgresSnapshotStore } from '../../ledger/snapshots/postgres-snapshots.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { recorded } from '../../ledger/wallet/wallet.arbitraries.js';
import { fold } from '../../ledger/wallet/wallet.js';
import type { WalletEvent } from '../../ledger/wallet/events.js';
import { PROJECTIONS, Projector } from '../../projections/registry.js';
import { replayProjections, resetReadModels } from '../../projections/replay.js';
import { transactionsPageJson } from '../../server/transactions/list.js';
import { seedLedger } from '../seed.js';
import { TARGETS, type Figure } from './model.js';
import { BENCH_ACTOR, median, now, perSecond, round, settle, type Ctx } from './helpers.js';

/** What one log size measured. */
interface Measured {
  coldSmallMs: number;
  coldBigMs: number;
  coldBigNoSnapshotMs: number;
  commandsPerSecond: number;
  commandP99Ms: number;
  lagP99Ms: number;
  readP99Ms: number;
  replayEventsPerSecond: number;
  replayRssMB: number;
  bytesPerEvent: number;
}

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
};
const sizeLabel = (n: number) => (Math.log10(n) % 1 === 0 ? `10^${Math.log10(n)}` : n.toLocaleString('en-US'));

/** Runs `clients` loops of `fn` for `seconds`; resolves with how many completed. */
async function loadFor(clients: number, seconds: number, fn: (client: number) => Promise<void>): Promise<number> {
  const until = now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (now() < until) {
        await fn(c);
        done++;
      }
    }),
  );
  return done;
}

/** A command on a wallet no handler has in memory (a restart, another instance, an eviction): median ms over `samples`. */
async function coldCommand(ctx: Ctx, userId: string, samples: number, snapshots?: SnapshotOptions): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const handler = new CommandHandler(ctx.store, snapshots ? { snapshots } : {});
    const t0 = now();
    await handler.handle(walletDecider, userId, recorded('0.001', 'Complete', 'BTC'), { actor: BENCH_ACTOR });
    times.push(now() - t0);
    await handler.flushSnapshots();
  }
  return median(times);
}

async function measure(ctx: Ctx, size: number, wallets: { small: string; big: string; others: string[] }): Promise<Measured> {
  const { database, store, sizes, log } = ctx;
  const snapshots: SnapshotOptions = { store: new PostgresSnapshotStore(database.db) };
  // The first cold load of each wallet folds it and writes its snapshot; then the timed ones.
  await coldCommand(ctx, wallets.small, 1, snapshots);
  await coldCommand(ctx, wallets.big, 1, snapshots);
  const coldSmallMs = await coldCommand(ctx, wallets.small, sizes.growthSamples, snapshots);
  const coldBigMs = await coldCommand(ctx, wallets.big, sizes.growthSamples, snapshots);
  const coldBigNoSnapshotMs = await coldCommand(ctx, wallets.big, 2);
  log(
    `growth ${sizeLabel(size)}: cold command ${coldSmallMs.toFixed(1)} ms (100 events), ${coldBigMs.toFixed(1)} ms (big wallet), ${coldBigNoSnapshotMs.toFixed(0)} ms without snapshots`,
  );

  // Replay all, with the process's RSS sampled above what it was before.
  await resetReadModels(database.db, PROJECTIONS);
  await settle(ctx.pool);
  const head = await store.headPosition();
  const rssBefore = process.memoryUsage.rss();
  let rssMax = rssBefore;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, process.memoryUsage.rss())), 50);
  const [all] = await replayProjections(database.projectionDb, store, PROJECTIONS, { until: head });
  clearInterval(sampler);
  const replayEventsPerSecond = perSecond(all!.events, all!.seconds * 1000);
  const replayRssMB = (rssMax - rssBefore) / 2 ** 20 + 1; // + 1 MB: never zero
  log(
    `growth ${sizeLabel(size)}: replay all ${all!.events.toLocaleString('en-US')} events in ${all!.seconds.toFixed(1)} s, RSS +${replayRssMB.toFixed(0)} MB`,
  );

  // The transactions page (what GET /api/v1/transactions serves), 16 readers over random customers.
  const readTimes: number[] = [];
  const pick = () => wallets.others[Math.floor(Math.random() * wallets.others.length)]!;
  await loadFor(sizes.growthClients, sizes.growthSeconds, async () => {
    const t0 = now();
    await transactionsPageJson(database.db, pick(), 1, 10);
    readTimes.push(now() - t0);
  });

  // Commands on random customers' wallets, each answered once the read models show it (as the API does).
  const projector = new Projector(database.projectionDb, store);
  await projector.start();
  const handler = new CommandHandler(store, { snapshots });
  const commandTimes: number[] = [];
  const lagTimes: number[] = [];
  const t0 = now();
  let commands: number;
  try {
    commands = await loadFor(sizes.growthClients, sizes.growthSeconds, async () => {
      const started = now();
      const { position } = await handler.handle(walletDecider, pick(), recorded('0.001', 'Complete', 'BTC'), {
        actor: BENCH_ACTOR,
        correlationId: randomUUID(),
      });
      const appended = now();
      if (!(await projector.waitFor(position!, 10_000))) throw new Error('growth: the read models did not show a command within 10 s');
      lagTimes.push(now() - appended);
      commandTimes.push(now() - started);
    });
  } finally {
    await projector.stop();
  }
  const commandsPerSecond = perSecond(commands, now() - t0);
  await handler.flushSnapshots();

  const { rows } = await sql<{
    bytes: string;
    n: string;
  }>`select pg_total_relation_size('events')::text as bytes, (select count(*) from events)::text as n`.execute(database.db);
  return {
    coldSmallMs,
    coldBigMs,
    coldBigNoSnapshotMs,
    commandsPerSecond,
    commandP99Ms: p99(commandTimes),
    lagP99Ms: p99(lagTimes),
    readP99Ms: p99(readTimes),
    replayEventsPerSecond,
    replayRssMB,
    bytesPerEvent: Number(rows[0]!.bytes) / Number(rows[0]!.n),
  };
}

/** Each figure of a size against the same figure at the first size; the targets where it sets one. */
function figures(size: number, first: number, m: Measured, base: Measured): Figure[] {
  const label = sizeLabel(size);
  const against = `same figure at ${sizeLabel(first)} events`;
  const grown = size !== first;
  const fig = (id: string, name: string, unit: string, value: number, baseValue: number, target: Figure['target'], digits = 1): Figure => ({
    id: `growth.${id}@${size}`,
    group: 'growth',
    name: `${name} (log ${label})`,
    unit,
    value: round(value, digits),
    baseline: { name: against, value: round(baseValue, digits) },
    ratio: round(value / baseValue, 3),
    target,
  });
  const atLeast = (ratio: number, value: number, baseValue: number) =>
    grown ? { text: `>= ${ratio.toFixed(1)}x`, pass: value / baseValue >= ratio } : null;
  const atMost = (ratio: number, value: number, baseValue: number) =>
    grown ? { text: `<= ${ratio.toFixed(1)}x`, pass: value / baseValue <= ratio } : null;
  const { growth } = TARGETS;
  return [
    {
      id: `growth.cold@${size}`,
      group: 'growth',
      name: `Cold command, big wallet (log ${label})`,
      unit: 'ms',
      value: round(m.coldBigMs, 1),
      baseline: { name: 'cold command, 100-event wallet, same log', value: round(m.coldSmallMs, 1) },
      ratio: round(m.coldBigMs / m.coldSmallMs, 3),
      target: { text: `<= ${growth.coldBigVsSmall}x`, pass: m.coldBigMs / m.coldSmallMs <= growth.coldBigVsSmall },
      details: { withoutSnapshotsMs: round(m.coldBigNoSnapshotMs, 1) },
    },
    fig('coldNoSnapshot', 'Cold command, big wallet, no snapshots', 'ms', m.coldBigNoSnapshotMs, base.coldBigNoSnapshotMs, null),
    fig(
      'commands',
      'Commands, 16 clients, answered when visible',
      'commands/s',
      m.commandsPerSecond,
      base.commandsPerSecond,
      atLeast(growth.commands, m.commandsPerSecond, base.commandsPerSecond),
      0,
    ),
    fig('commands.p99', 'Commands: p99', 'ms', m.commandP99Ms, base.commandP99Ms, null),
    fig('lag.p99', 'Projection lag under the command load: p99', 'ms', m.lagP99Ms, base.lagP99Ms, null),
    fig(
      'reads.p99',
      'Transactions page: p99, 16 readers',
      'ms',
      m.readP99Ms,
      base.readP99Ms,
      atMost(growth.readP99, m.readP99Ms, base.readP99Ms),
      2,
    ),
    fig(
      'replay',
      'Replay all',
      'events/s',
      m.replayEventsPerSecond,
      base.replayEventsPerSecond,
      atLeast(growth.replay, m.replayEventsPerSecond, base.replayEventsPerSecond),
      0,
    ),
    fig(
      'replay.rss',
      'Replay all: RSS growth',
      'MB',
      m.replayRssMB,
      base.replayRssMB,
      atMost(growth.replayRss, m.replayRssMB, base.replayRssMB),
    ),
    fig('bytes', 'Bytes on disk per event', 'bytes', m.bytesPerEvent, base.bytesPerEvent, null, 0),
  ];
}

export async function growthPhase(ctx: Ctx): Promise<void> {
  const { pool, store, sizes, log } = ctx;
  await pool.query('truncate events, streams, snapshots, snapshot_archive');
  const bigEvents = sizes.growthBigWallet;
  log(`growth: seeding a wallet of ${bigEvents.toLocaleString('en-US')} events and one of 100`);
  const big = (await seedLedger(store, { events: bigEvents, perWallet: bigEvents, concurrency: 1, seed: 7 })).userIds[0]!;
  const small = (await seedLedger(store, { events: 100, perWallet: 100, concurrency: 1, seed: 8 })).userIds[0]!;
  const bigState = fold((await store.readStream(`wallet-${big}`)).map((e) => ({ type: e.type, data: e.data }) as WalletEvent));
  const open = { open: bigState.transactions.size, closed: bigState.closed.size };
  log(
    `growth: the big wallet holds ${open.open.toLocaleString('en-US')} open and ${open.closed.toLocaleString('en-US')} closed transactions`,
  );
  const others: string[] = [small];
  let logged = bigEvents + 100;
  const measured: { size: number; m: Measured }[] = [];
  for (const [i, size] of sizes.growthLogs.entries()) {
    if (size > logged) {
      log(`growth: seeding ${(size - logged).toLocaleString('en-US')} events in wallets of 100`);
      const seeded = await seedLedger(store, { events: size - logged, seed: 100 + i });
      others.push(...seeded.userIds);
      logged += seeded.events;
    }
    await pool.query('vacuum analyze events');
    await settle(pool);
    const m = await measure(ctx, size, { small, big, others });
    measured.push({ size, m });
    ctx.figures.push(...figures(size, measured[0]!.size, m, measured[0]!.m));
  }
  ctx.setup.growth = {
    bigWalletEvents: bigEvents,
    bigWalletTransactions: open,
    logs: measured.map((x) => x.size),
    wallets: others.length + 1,
  };
}
