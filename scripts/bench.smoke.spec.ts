import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PROJECTIONS } from '../projections/registry.js';
import { againstIssueMachine, formatTable, runBench, type BenchResults, type Figure } from './bench.js';
import type { BufferProfile } from './bench/buffer-misses.js';

const databaseUrl = process.env.DATABASE_URL;

// The benchmark itself is `npm run bench`; this only proves that every phase runs and
// reports, with sizes too small to mean anything.
describe.skipIf(!databaseUrl)('bench (smoke, tiny sizes)', () => {
  it('reports every figure with a value, a baseline and a ratio, and proves the contention balance exact', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-'));
    const outPath = path.join(dir, 'results.json');
    try {
      const returned = await runBench({ databaseUrl: databaseUrl!, size: 'tiny', outPath, log: () => {} });
      const results = JSON.parse(fs.readFileSync(outPath, 'utf8')) as BenchResults;
      expect(results).toEqual(JSON.parse(JSON.stringify(returned)));

      expect(results.node).toBe(process.version);
      expect(typeof results.machine.cpus).toBe('number');
      expect(Number.isNaN(Date.parse(results.date))).toBe(false);
      expect(results.quick).toBe(true);

      const ids = results.figures.map((f) => f.id);
      expect(ids).toEqual(
        expect.arrayContaining([
          'appends.single',
          'appends.batch',
          ...PROJECTIONS.map((p) => `replay.${p.name}`),
          'replay.all',
          'contention.sharedHandler',
          'contention.separateHandlers',
          'http.commands',
          'http.commands.p99',
          'http.reads.profile',
          'http.reads.transactions',
          'http.static',
          'http.serverRss',
          'process.peakRss',
        ]),
      );
      for (const f of results.figures) {
        expect(Number.isFinite(f.value) && f.value > 0, `${f.id} value`).toBe(true);
        expect(Number.isFinite(f.baseline.value) && f.baseline.value > 0, `${f.id} baseline`).toBe(true);
        expect(Number.isFinite(f.ratio) && f.ratio > 0, `${f.id} ratio`).toBe(true);
        expect(f.baseline.name.length).toBeGreaterThan(0);
        if (f.group !== 'process' && f.id !== 'http.static') expect(typeof f.target?.pass, `${f.id} target`).toBe('boolean');
      }
      // Exactness does not depend on the machine: it must hold even at tiny sizes.
      for (const f of results.figures.filter((x) => x.group === 'contention')) {
        expect(f.target?.pass, results.proofs.join('\n')).toBe(true);
        expect(f.details).toMatchObject({ accepted: 20, gaveUp: 0, foldedAvailable: '0.005', expectedAvailable: '0.005' });
      }
      // Every HTTP request of the run answered 2xx: the commands were accepted, the reads served.
      for (const f of results.figures.filter((x) => x.group === 'http' && x.details?.subject)) {
        const d = f.details as {
          subject: { non2xx: number; errors: number; requests: number };
          baseline: { non2xx: number; errors: number };
        };
        expect([d.subject.non2xx, d.subject.errors, d.baseline.non2xx, d.baseline.errors], f.id).toEqual([0, 0, 0, 0]);
        expect(d.subject.requests, f.id).toBeGreaterThan(0);
      }
      expect(results.notMeasured).toEqual([]);

      expect(results.againstIssueMachine.map((a) => a.name)).toEqual([
        'static route',
        'SELECT-by-key route',
        'one-INSERT-transaction route',
        "that route's p99",
        'read and fold with decimal.js',
      ]);

      const table = formatTable(results);
      for (const f of results.figures) expect(table).toContain(f.name);
      expect(table).toContain("this machine against the issue's, whose speed the absolute targets assume: static route");

      // Whether the role could ask for the checkpoints between phases, and the table's warning when not.
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const { rows } = await client
        .query<{ rolsuper: boolean }>('select rolsuper from pg_roles where rolname = current_user')
        .finally(() => client.end());
      if (rows[0]!.rolsuper) expect(results.machine.checkpoints).toBe(true);
      expect(table.includes('checkpoints between phases refused')).toBe(!results.machine.checkpoints);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it('runs the growth phase when asked: every figure at each log size, as a ratio to the first size', async () => {
    const results = await runBench({ databaseUrl: databaseUrl!, size: 'tiny', phases: ['growth'], outPath: null, log: () => {} });
    const growth = results.figures.filter((f) => f.group === 'growth');
    const metrics = [
      'cold',
      'coldNoSnapshot',
      'commands',
      'commands.p99',
      'catchUp',
      'lag.p99',
      'reads.p99',
      'profile.p99',
      'replay',
      'replay.rss',
      'bytes',
    ];
    expect(growth.map((f) => f.id)).toEqual(results.sizes.growthLogs.flatMap((size) => metrics.map((m) => `growth.${m}@${size}`)));
    for (const f of growth) {
      expect(Number.isFinite(f.value) && f.value > 0, `${f.id} value`).toBe(true);
      // The ratio is of the unrounded figures; the value and baseline shown are rounded.
      expect(Math.abs(f.ratio - f.value / f.baseline.value) / f.ratio, f.id).toBeLessThan(0.05);
    }
    const [first, second] = results.sizes.growthLogs;
    // At the first size every figure but the cold command is its own baseline; at the next, the first size's figure.
    const ownBaseline = (id: string) => id.startsWith('growth.cold@') || id.startsWith('growth.catchUp@');
    for (const f of growth.filter((x) => x.id.endsWith(`@${first}`) && !ownBaseline(x.id))) expect(f.ratio, f.id).toBe(1);
    // A read model caught up with replay --shadow beside the command load, held to the issue's 2x of the p99 without it.
    const catchUp = growth.find((f) => f.id === `growth.catchUp@${second}`)!;
    expect(catchUp.target?.text).toBe('<= 2x');
    expect(catchUp.details?.commands).toBeGreaterThan(0);
    const replay = (size: number) => growth.find((f) => f.id === `growth.replay@${size}`)!;
    expect(replay(second!).baseline.value).toBe(replay(first!).value);
    expect(replay(second!).target?.text).toBe('>= 0.8x');
    // Beside the commands and the reads, what PostgreSQL fetched and wrote for each: commands write WAL, reads none.
    const buffers = (id: string) => growth.find((f) => f.id === `${id}@${second}`)!.details?.buffers as BufferProfile;
    expect(buffers('growth.commands').walBytesPerOp).toBeGreaterThan(0);
    expect(buffers('growth.reads.p99').hitRatio).toBeGreaterThan(0);
    expect(buffers('growth.reads.p99').hitRatio).toBeLessThanOrEqual(1);
    // The CPU behind each load: this process's always; PostgreSQL's and the idle share where
    // /proc shows them (Linux, the database on this machine, as in CI).
    const cpu = buffers('growth.commands').cpu;
    expect(cpu.appMsPerOp).toBeGreaterThan(0);
    if (process.platform === 'linux') {
      expect(cpu.postgresMsPerOp).toBeGreaterThan(0);
      expect(cpu.idleShare).toBeGreaterThanOrEqual(0);
      expect(cpu.idleShare).toBeLessThan(1);
    }
    expect(buffers('growth.profile.p99').readsPerOp).toBeGreaterThanOrEqual(0);
    // The cold command on the big wallet is held against the 100-event wallet's, with the issue's 2x.
    expect(growth.find((f) => f.id === `growth.cold@${first}`)!.target?.text).toBe('<= 2x');
    expect(formatTable(results)).toContain('Cold command, big wallet (log 1,500)');
  }, 240_000);
});

describe("the machine against the issue's measurements", () => {
  const fig = (id: string, value: number, baseline: number, details?: Record<string, unknown>): Figure => ({
    id,
    group: 'http',
    name: id,
    unit: 'x',
    value,
    baseline: { name: 'b', value: baseline },
    ratio: value / baseline,
    target: null,
    details,
  });

  it("puts each of this run's baselines beside the issue's figure for the same work, and skips phases that did not run", () => {
    const figures = [
      fig('http.static', 32_000, 6_150),
      fig('http.reads.profile', 4_000, 6_150),
      fig('http.commands', 2_000, 2_450),
      fig('http.commands.p99', 60, 66),
      fig('appends.single', 1, 1),
    ];
    expect(againstIssueMachine(figures)).toEqual([
      { name: 'static route', unit: 'req/s', here: 32_000, issue: 64_000, ratio: 0.5 },
      { name: 'SELECT-by-key route', unit: 'req/s', here: 6_150, issue: 12_300, ratio: 0.5 },
      { name: 'one-INSERT-transaction route', unit: 'req/s', here: 2_450, issue: 4_900, ratio: 0.5 },
      { name: "that route's p99", unit: 'ms', here: 66, issue: 33, ratio: 2 },
    ]);
    expect(againstIssueMachine([fig('replay.all', 50_000, 131_000, { events: 1_000_000 })])).toEqual([
      {
        name: 'read and fold with decimal.js',
        unit: 'events/s',
        here: 131_000,
        issue: 262_000,
        ratio: 0.5,
        note: 'the issue read 200,000 events, this run 1,000,000',
      },
    ]);
  });
});
