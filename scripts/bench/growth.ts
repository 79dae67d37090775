/**
 * How the cost grows with the log (issue 33): the same figures at each log size, each as a
 * ratio to the first size (10^5 events) in the same run. See docs/performance.md.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import { CommandHandler } from '../../ledger/command-handler.js';
import type { SnapshotOptions } from '../../ledger/snapshots/snapshot.js';
import { PostgresSnapshotStore } from '../../ledger/snapshots/postgres-snapshots.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { userDecider } from '../../ledger/user/user.js';
import { recorded } from '../../ledger/wallet/wallet.arbitraries.js';
import { fold } from '../../ledger/wallet/wallet.js';
import type { WalletEvent } from '../../ledger/wallet/events.js';
import { PROJECTIONS, Projector } from '../../projections/registry.js';
import { resetReadModels, type ReplayResult } from '../../projections/replay.js';
import { entriesPage, transactionsPageJson } from '../../server/transactions/list.js';
import { profileDetails } from '../../server/routes/wallet/queries.js';
import { money } from '../../ledger/money.js';
import { seedLedger } from '../seed.js';
import { describeProfile, profileBuffers, type BufferProfile } from './buffer-misses.js';
import { figures, sizeLabel, type Measured } from './growth-figures.js';
import { BENCH_ACTOR, median, now, perSecond, runWriters, settle, type Ctx } from './helpers.js';

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
};

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

/**
 * A read model added to a grown log, caught up while the app serves: `ledger replay transactions
 * --shadow` in its own process (as an operator runs it), beside the same command load as above.
 * The commands timed are those from the rebuild's first progress line until the process ends
 * (its start-up is not the catch-up's cost).
 */
/**
 * Runs `npm run ledger -- <args>` against the run's scratch database, in a process of its own,
 * to its end: its output, or an error with the end of its stderr. `onStderr` sees its progress
 * lines as they come.
 */
async function ledgerCli(ctx: Ctx, args: string[], onStderr?: (text: string) => void): Promise<{ stdout: string }> {
  const child = spawn(path.join('node_modules', '.bin', 'tsx'), ['scripts/ledger.ts', ...args], {
    env: { ...process.env, DATABASE_URL: ctx.databaseUrl, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    onStderr?.(stderr);
  });
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  if (code !== 0) throw new Error(`growth: ledger ${args.join(' ')} failed (${code}): ${stderr.slice(-500)}`);
  return { stdout };
}

async function commandsDuringShadowReplay(
  ctx: Ctx,
  command: (times: number[]) => Promise<void>,
): Promise<{ p99Ms: number; commands: number; seconds: number; swapMs: number }> {
  let started: number | null = null;
  let running = true;
  const replay = ledgerCli(ctx, ['replay', 'transactions', '--shadow'], (stderr) => {
    started ??= /rebuilding in shadow tables/.test(stderr) ? now() : null;
  }).finally(() => (running = false));
  // The failure, if any, is thrown below, once the load has stopped.
  replay.catch(() => {});
  const times: number[] = [];
  /** Every command while the process ran: what is reported when none fell after the first progress line (tiny logs). */
  const whole: number[] = [];
  await Promise.all(
    Array.from({ length: ctx.sizes.growthClients }, async () => {
      while (running) {
        const began = started;
        const mine: number[] = [];
        await command(mine);
        whole.push(...mine);
        if (began !== null) times.push(...mine);
      }
    }),
  );
  const { stdout } = await replay;
  const seconds = started === null ? 0 : (now() - started) / 1000;
  const swapMs = Number(/swap (\d+) ms/.exec(stdout)?.[1] ?? NaN);
  const timed = times.length > 0 ? times : whole;
  return { p99Ms: p99(timed), commands: timed.length, seconds, swapMs };
}

/** The pages a table has on disk. */
async function tablePages(ctx: Ctx, table: string): Promise<number> {
  const { rows } = await ctx.pool.query<{ pages: string }>('select (pg_relation_size($1::regclass) / 8192)::text as pages', [table]);
  return Number(rows[0]!.pages);
}

/** The rows of a table in its pages from `page` on (a TID range scan reads only those). */
async function rowsFromPage(ctx: Ctx, table: string, page: number): Promise<number> {
  const { rows } = await ctx.pool.query<{ n: string }>(`select count(*)::text as n from ${table} where ctid >= $1::tid`, [`(${page},0)`]);
  return Number(rows[0]!.n);
}

/**
 * The plan PostgreSQL runs for one customer's first page (`explain (analyze, buffers)` of the
 * page's statement), with how many rows of theirs the list's index holds: what a slower page
 * did, printed at each size beside its p99.
 */
async function pagePlan(ctx: Ctx, userId: string): Promise<string> {
  const compiled = entriesPage(userId, 1, 10).compile(ctx.database.db);
  const { rows } = await ctx.pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${compiled.sql}`, [...compiled.parameters]);
  const { rows: counted } = await ctx.pool.query<{ n: string }>('select count(*)::text as n from transactions where user_id = $1', [
    userId,
  ]);
  return [`${counted[0]!.n} transactions rows of the customer`, ...rows.map((r) => `  ${r['QUERY PLAN']}`)].join('\n');
}

/**
 * The machine's own speed at this point of the run, on work that does not depend on the log:
 * a fixed task in this process (decimal sums and a JSON round trip) and a fixed statement in
 * PostgreSQL (counting a generated series), median ms of 5 each, nothing else running. When
 * these slow down at a size as the loads do, the machine is slower there (its caches, its
 * neighbours), not the ledger's work.
 */
async function machineProbe(ctx: Ctx): Promise<{ appMs: number; postgresMs: number }> {
  const task = () => {
    let total = money('0');
    for (let i = 0; i < 20_000; i++) total = total.plus(money(`${i}.123456789`));
    const text = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ id: i, amount: `${i}.5`, note: 'probe' })));
    return total.toString().length + (JSON.parse(text) as unknown[]).length;
  };
  const app: number[] = [];
  const postgres: number[] = [];
  for (let i = 0; i < 5; i++) {
    let t0 = now();
    if (task() <= 0) throw new Error('growth: the probe task computed nothing');
    app.push(now() - t0);
    t0 = now();
    await ctx.pool.query('select count(*) from generate_series(1, 1000000)');
    postgres.push(now() - t0);
  }
  return { appMs: median(app), postgresMs: median(postgres) };
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

async function measure(ctx: Ctx, size: number, wallets: { small: string; big: string; active: string[] }): Promise<Measured> {
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

  // Replay all as an operator runs it (`ledger replay all`), in a process of its own: its
  // events/s, and the most memory that process held (an RSS sampled inside this long-lived
  // process swung 10x on one code: docs/performance.md).
  await resetReadModels(database.db, PROJECTIONS);
  await settle(ctx.pool);
  const replayed = await ledgerCli(ctx, ['replay', 'all', '--json']);
  const output = JSON.parse(replayed.stdout) as { results: ReplayResult[]; peakRssMB: number };
  const all = output.results[0]!;
  const replayEventsPerSecond = perSecond(all.events, all.seconds * 1000);
  const replayRssMB = output.peakRssMB;
  log(
    `growth ${sizeLabel(size)}: replay all ${all.events.toLocaleString('en-US')} events in ${all.seconds.toFixed(1)} s, peak RSS of the process ${replayRssMB} MB`,
  );
  // The rebuilt tables vacuumed (the replay gathered their statistics), as the log is after
  // seeding: the loads below measure the steady state, not autovacuum's first pass over them.
  for (const t of PROJECTIONS.flatMap((p) => p.tables)) await ctx.pool.query(`vacuum ${t}`);
  await settle(ctx.pool);

  const probe = await machineProbe(ctx);
  log(
    `growth ${sizeLabel(size)}: the machine: a fixed task ${probe.appMs.toFixed(1)} ms in this process, a fixed statement ${probe.postgresMs.toFixed(1)} ms in PostgreSQL`,
  );

  // The transactions page (what GET /api/v1/transactions serves), 16 readers over random customers.
  const readTimes: number[] = [];
  const pick = () => wallets.active[Math.floor(Math.random() * wallets.active.length)]!;
  const reads = await profileBuffers(
    ctx.pool,
    () =>
      loadFor(sizes.growthClients, sizes.growthSeconds, async () => {
        const t0 = now();
        await transactionsPageJson(database.db, pick(), 1, 10);
        readTimes.push(now() - t0);
      }),
    sizes.growthStatsWaitMs,
  );

  // The profile (what get-user-profile-details answers: the user, their profile and balances), the same way.
  const profileTimes: number[] = [];
  const profiles = await profileBuffers(
    ctx.pool,
    () =>
      loadFor(sizes.growthClients, sizes.growthSeconds, async () => {
        const t0 = now();
        if (!(await profileDetails(database.db, pick()))) throw new Error('growth: an active customer has no profile');
        profileTimes.push(now() - t0);
      }),
    sizes.growthStatsWaitMs,
  );
  log(`growth ${sizeLabel(size)}: transactions page: ${describeProfile(reads.profile, 'page')}`);
  log(
    `growth ${sizeLabel(size)}: transactions page median ${median(readTimes).toFixed(1)} ms, p99 ${p99(readTimes).toFixed(1)} ms; profile median ${median(profileTimes).toFixed(1)} ms, p99 ${p99(profileTimes).toFixed(1)} ms; this process's heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`,
  );
  log(`growth ${sizeLabel(size)}: the page's plan, ${await pagePlan(ctx, pick())}`);
  log(`growth ${sizeLabel(size)}: profile: ${describeProfile(profiles.profile, 'read')}`);

  // Commands on random customers' wallets, each answered once the read models show it (as the API does).
  const projector = new Projector(database.projectionDb, store);
  await projector.start();
  const handler = new CommandHandler(store, { snapshots });
  const commandTimes: number[] = [];
  const lagTimes: number[] = [];
  const command = async (times: number[], lags?: number[], userId = pick()) => {
    const started = now();
    const { position } = await handler.handle(walletDecider, userId, recorded('0.001', 'Complete', 'BTC'), {
      actor: BENCH_ACTOR,
      correlationId: randomUUID(),
    });
    const appended = now();
    if (!(await projector.waitFor(position!, 30_000))) throw new Error('growth: the read models did not show a command within 30 s');
    lags?.push(now() - appended);
    times.push(now() - started);
  };
  let commandsPerSecond: number;
  let commandBuffers: BufferProfile;
  let catchUp: { p99Ms: number; commands: number; seconds: number; swapMs: number };
  try {
    // A new handler holds no wallet: the first command on each loads it (from its snapshot and
    // the events after it), a cold start the cold-command figures measure. One command on each
    // active wallet first, so that the load below times the handler serving, not starting.
    const warmUp = await profileBuffers(
      ctx.pool,
      async () => {
        await runWriters(sizes.growthClients, wallets.active.length, (i) => command([], undefined, wallets.active[i]));
        return wallets.active.length;
      },
      sizes.growthStatsWaitMs,
    );
    log(`growth ${sizeLabel(size)}: warm-up, one command on each active wallet: ${describeProfile(warmUp.profile, 'command')}`);
    let ms = 0;
    const pagesBefore = await tablePages(ctx, 'transactions');
    const commands = await profileBuffers(
      ctx.pool,
      async () => {
        const t0 = now();
        const done = await loadFor(sizes.growthClients, sizes.growthSeconds, () => command(commandTimes, lagTimes));
        ms = now() - t0;
        return done;
      },
      sizes.growthStatsWaitMs,
    );
    commandsPerSecond = perSecond(commands.ops, ms);
    commandBuffers = commands.profile;
    // Each command adds one row to the transactions read model: how many went into new pages at
    // the table's end, and how many into the free space vacuum found in its older pages.
    const atEnd = await rowsFromPage(ctx, 'transactions', pagesBefore);
    log(
      `growth ${sizeLabel(size)}: of the commands' ${commands.ops.toLocaleString('en-US')} new transactions rows, ${atEnd.toLocaleString('en-US')} went into new pages and ${(commands.ops - atEnd).toLocaleString('en-US')} into older ones (of ${pagesBefore.toLocaleString('en-US')} pages)`,
    );
    catchUp = await commandsDuringShadowReplay(ctx, (times) => command(times));
  } finally {
    await projector.stop();
  }
  await handler.flushSnapshots();
  log(`growth ${sizeLabel(size)}: commands: ${describeProfile(commandBuffers, 'command')}`);
  log(
    `growth ${sizeLabel(size)}: commands p99 ${p99(commandTimes).toFixed(1)} ms; while the transactions read model caught up (replay --shadow, ${catchUp.seconds.toFixed(1)} s, swap ${catchUp.swapMs} ms): ${catchUp.p99Ms.toFixed(1)} ms over ${catchUp.commands} commands`,
  );

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
    profileP99Ms: p99(profileTimes),
    replayEventsPerSecond,
    replayRssMB,
    bytesPerEvent: Number(rows[0]!.bytes) / Number(rows[0]!.n),
    catchUp,
    buffers: { reads: reads.profile, profile: profiles.profile, commands: commandBuffers },
  };
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
  // The customers the command load and the page readers act for: the same ones at every size,
  // so that what changes between sizes is the log and the tables around them, not how many of
  // the wallets acted on are still in the command handler's cache (at the first size there were
  // none but the small wallet; at 10^6, 9,000 mostly cold ones).
  const activeEvents = sizes.growthActiveWallets * 100;
  log(`growth: seeding ${sizes.growthActiveWallets.toLocaleString('en-US')} active wallets of 100 events`);
  const active = (await seedLedger(store, { events: activeEvents, seed: 9 })).userIds;
  // Each is a registered customer too (the users read model's rows, rebuilt by every replay),
  // so that the profile read has a user and a profile to join to the balances.
  const accounts = new CommandHandler(store);
  for (const id of active) {
    await accounts.handle(
      userDecider,
      id,
      {
        type: 'Register',
        email: `growth-${id}@bench.wallet-ledger.local`,
        fullName: 'Growth Customer',
        role: 'USER',
        source: 'operator',
        requiresPasswordChange: false,
        emailConfirmed: true,
      },
      { actor: BENCH_ACTOR },
    );
  }
  const others: string[] = [small, ...active];
  let logged = bigEvents + 100 + activeEvents;
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
    const m = await measure(ctx, size, { small, big, active });
    measured.push({ size, m });
    ctx.figures.push(...figures(size, measured[0]!.size, m, measured[0]!.m));
  }
  ctx.setup.growth = {
    bigWalletEvents: bigEvents,
    bigWalletTransactions: open,
    logs: measured.map((x) => x.size),
    firstLogEvents: bigEvents + 100 + activeEvents,
    activeWallets: active.length,
    wallets: others.length + 1,
  };
}
