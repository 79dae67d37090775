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
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openDatabase, type Database } from '../server/db/database.js';
import { migrateToLatest } from '../migrations/index.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import {
  againstIssueMachine,
  ALL_PHASES,
  NOT_MEASURED,
  PHASES,
  SIZES,
  type BenchResults,
  type BenchSize,
  type BenchSizes,
  type Phase,
} from './bench/model.js';
import { now, round, type Ctx } from './bench/helpers.js';
import { appendsPhase } from './bench/appends.js';
import { replayPhase } from './bench/replay.js';
import { contentionPhase } from './bench/contention.js';
import { httpPhase } from './bench/http.js';
import { growthPhase } from './bench/growth.js';

export * from './bench/model.js';

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

const NO_CHECKPOINTS =
  'checkpoints between phases refused: the role may not ask for one (pg_checkpoint), so each phase pays for the dirty pages of the one before';

/** Set while a run holds a scratch database, so that a signal handler can drop it. */
let activeCleanup: (() => Promise<void>) | null = null;

async function machineInfo(pool: pg.Pool): Promise<BenchResults['machine']> {
  const cpus = os.cpus();
  const version = (await pool.query<{ v: string }>('select version() as v')).rows[0]!.v;
  const { rows } = await pool.query<{ name: string; setting: string; unit: string | null }>(
    `select name, setting, unit from pg_settings
     where name in ('shared_buffers', 'synchronous_commit', 'fsync', 'wal_level', 'max_connections', 'commit_delay', 'work_mem')`,
  );
  const role = await pool.query<{ can: boolean }>(
    `select rolsuper or pg_has_role(current_user, 'pg_checkpoint', 'MEMBER') as can from pg_roles where rolname = current_user`,
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
    checkpoints: role.rows[0]?.can === true,
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
    database = await openDatabase({
      databaseUrl: url.toString(),
      poolSize: Math.max(sizes.singleWriters, sizes.contentionHandlers) + 4,
      preparedStatements: process.env.DB_PREPARED_STATEMENTS !== 'false',
    });
    await migrateToLatest(database.db);
    const pool = database.pool!;
    const store = new PostgresEventStore(database.db);
    const ctx: Ctx = { databaseUrl: url.toString(), database, pool, store, sizes, log, figures: [], proofs: [], setup: { database: name } };
    const machine = await machineInfo(pool);
    if (!machine.checkpoints) log(`bench: ${NO_CHECKPOINTS}; run it as a superuser or grant pg_checkpoint to its role`);
    let maxLoad = machine.loadAverage.start;
    sampler = setInterval(() => (maxLoad = Math.max(maxLoad, os.loadavg()[0]!)), 5000);
    sampler.unref();
    // Contention runs before the replay's seed so that its proof folds a short log.
    const peakRssMB: Record<string, number> = {};
    ctx.setup.peakRssMBAfterPhase = peakRssMB;
    for (const [phase, run] of [
      ['appends', appendsPhase],
      ['contention', contentionPhase],
      ['http', httpPhase],
      ['replay', replayPhase],
      ['growth', growthPhase],
    ] as const) {
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
  if (!results.machine.checkpoints) info.push(`${NO_CHECKPOINTS}: the figures are not comparable with a run that had them`);
  for (const f of results.figures) {
    const perRound = f.details?.roundRatios as number[] | undefined;
    if (perRound)
      info.push(
        `${f.id}: ratio = median of ${perRound.length} paired rounds (${perRound.map((r) => r.toFixed(2)).join(' ')}); ratio of the totals ${String(f.details?.ratioOfTotals)}`,
      );
  }
  if (results.againstIssueMachine.length > 0) {
    const pairs = results.againstIssueMachine.map(
      (a) =>
        `${a.name} ${formatValue(a.here, a.unit)} against ${formatValue(a.issue, a.unit)} (${a.ratio.toFixed(2)}x${a.note ? `; ${a.note}` : ''})`,
    );
    info.push(`this machine against the issue's, whose speed the absolute targets assume: ${pairs.join(', ')}`);
  }
  const seed = results.setup.seed as { events: number; seconds: number; eventsPerSecond: number } | undefined;
  if (seed)
    info.push(
      `seed: ${seed.events.toLocaleString('en-US')} events in ${seed.seconds} s (${seed.eventsPerSecond.toLocaleString('en-US')} events/s)`,
    );
  return [...out, '', ...info, ...results.proofs].join('\n');
}

// ------------------------------------------------------------------------------- cli

const HELP = `Usage: npm run bench [-- --quick] [--only appends,replay,contention,http,growth] [--out FILE]

Measures appends, replay, contention and the HTTP API (autocannon) against the PostgreSQL in DATABASE_URL, each
next to a baseline measured in the same run. Creates and drops a scratch database
(bench_<random>) on that server. Writes bench/results.json and prints a table.

  --quick   smaller sizes (100,000 replay events), a few minutes at most
  --only    run only these phases (comma-separated); growth (logs of 10^5, 10^6 and, in a full
            run, 10^7 events) runs only when named here
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
    console.error(
      'bench: DATABASE_URL is not set. Point it at a PostgreSQL server where this user may create databases, e.g.\n' +
        '  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- --quick',
    );
    return 2;
  }
  const phases = values.only ? values.only.split(',').map((p) => p.trim()) : PHASES;
  const unknown = phases.filter((p) => !(ALL_PHASES as string[]).includes(p));
  if (unknown.length) {
    console.error(`bench: unknown phase ${unknown.join(', ')}; known: ${ALL_PHASES.join(', ')}`);
    return 2;
  }
  const size: BenchSize = values.tiny ? 'tiny' : values.quick ? 'quick' : 'full';
  const outPath = path.resolve(values.out ?? 'bench/results.json');
  const results = await runBench({
    databaseUrl,
    size,
    phases: phases as Phase[],
    outPath,
    command: ['npm run bench --', ...argv].join(' '),
  });
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
