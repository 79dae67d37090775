/**
 * What PostgreSQL did for a stretch of load, per operation: the blocks it had to fetch from
 * outside its shared buffers (per table and per index, from pg_statio), and the WAL it wrote
 * (bytes and full-page images, from pg_stat_wal). The growth phase prints it beside the
 * commands and the reads at each log size: a figure that slows down as the log grows shows
 * here which relation stopped fitting in memory (docs/performance.md).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { cpuBetween, sampleCpu, type CpuProfile } from './cpu.js';

export interface BufferProfile {
  /** Blocks fetched from outside shared buffers, per operation. */
  readsPerOp: number;
  /** The relations that fetched most, per operation, largest first (at most 4). */
  top: { relation: string; readsPerOp: number }[];
  /** The share of block accesses served from shared buffers. */
  hitRatio: number;
  /** Block accesses per operation, from shared buffers or not: the work a plan does, whatever is cached. */
  accessesPerOp: number;
  /** The relations accessed most, per operation, largest first (at most 5). */
  topAccesses: { relation: string; accessesPerOp: number }[];
  walBytesPerOp: number;
  /** Full-page images written to the WAL per operation (a page's first change after a checkpoint). */
  fullPagesPerOp: number;
  /** The share of the load's samples in which an autovacuum worker ran, and what it ran. */
  autovacuum: { busyShare: number; statements: string[] };
  /** The CPU the app and PostgreSQL spent per operation, and how idle the machine was (scripts/bench/cpu.ts). */
  cpu: CpuProfile;
}

interface Counters {
  /** Blocks read from outside shared buffers, per relation. */
  reads: Map<string, number>;
  /** Block accesses (hits and reads), per relation. */
  accesses: Map<string, number>;
  walBytes: number;
  fullPages: number;
}

async function counters(pool: pg.Pool): Promise<Counters> {
  const { rows } = await pool.query<{ relation: string; read: string; hit: string }>(`
    select relname as relation, coalesce(heap_blks_read, 0)::text as read, coalesce(heap_blks_hit, 0)::text as hit
    from pg_statio_user_tables
    union all
    select indexrelname, coalesce(idx_blks_read, 0)::text, coalesce(idx_blks_hit, 0)::text from pg_statio_user_indexes`);
  const wal = await pool.query<{ bytes: string; fpi: string }>('select wal_bytes::text as bytes, wal_fpi::text as fpi from pg_stat_wal');
  const reads = new Map<string, number>();
  const accesses = new Map<string, number>();
  for (const r of rows) {
    reads.set(r.relation, (reads.get(r.relation) ?? 0) + Number(r.read));
    accesses.set(r.relation, (accesses.get(r.relation) ?? 0) + Number(r.read) + Number(r.hit));
  }
  return { reads, accesses, walBytes: Number(wal.rows[0]!.bytes), fullPages: Number(wal.rows[0]!.fpi) };
}

/** How much each relation's counter grew between two readings, largest first, and the sum. */
function growth(before: Map<string, number>, after: Map<string, number>): { total: number; byRelation: [string, number][] } {
  const byRelation = [...after]
    .map(([relation, n]): [string, number] => [relation, n - (before.get(relation) ?? 0)])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  return { total: byRelation.reduce((sum, [, n]) => sum + n, 0), byRelation };
}

/** The autovacuum workers' statements running now (`autovacuum: VACUUM public.t`, …). */
async function autovacuums(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ query: string }>(`select query from pg_stat_activity where backend_type = 'autovacuum worker'`);
  return rows.map((r) => r.query);
}

/**
 * Runs `load`, which resolves with how many operations it completed, and profiles it: the
 * blocks and WAL per operation, and what autovacuum ran beside it (sampled every 250 ms).
 * `statsWaitMs` is waited before (so that the work before is not counted) and after (so that
 * all of the load's is): an idle backend reports its statistics at most once a second, and
 * when it reported less than a second ago PostgreSQL 15 holds them up to 10 s.
 */
export async function profileBuffers(
  pool: pg.Pool,
  load: () => Promise<number>,
  statsWaitMs: number,
): Promise<{ ops: number; profile: BufferProfile }> {
  await sleep(statsWaitMs);
  const before = await counters(pool);
  const seen = new Set<string>();
  let samples = 0;
  let busy = 0;
  let loading = true;
  const sampling = (async () => {
    while (loading) {
      const running = await autovacuums(pool);
      samples++;
      if (running.length > 0) busy++;
      for (const q of running) seen.add(q.replace(/^autovacuum: /, ''));
      await sleep(250);
    }
  })();
  const cpuBefore = await sampleCpu();
  const ops = await load().finally(() => (loading = false));
  const cpu = cpuBetween(cpuBefore, await sampleCpu(), ops);
  await sampling;
  await sleep(statsWaitMs);
  const after = await counters(pool);
  const per = (n: number) => (ops > 0 ? n / ops : 0);
  const reads = growth(before.reads, after.reads);
  const accesses = growth(before.accesses, after.accesses);
  return {
    ops,
    profile: {
      readsPerOp: per(reads.total),
      top: reads.byRelation.slice(0, 4).map(([relation, n]) => ({ relation, readsPerOp: per(n) })),
      hitRatio: accesses.total > 0 ? 1 - reads.total / accesses.total : 1,
      accessesPerOp: per(accesses.total),
      topAccesses: accesses.byRelation.slice(0, 5).map(([relation, n]) => ({ relation, accessesPerOp: per(n) })),
      walBytesPerOp: per(after.walBytes - before.walBytes),
      fullPagesPerOp: per(after.fullPages - before.fullPages),
      autovacuum: { busyShare: samples > 0 ? busy / samples : 0, statements: [...seen] },
      cpu,
    },
  };
}

/** One line: `2.10 blocks read per command (events_pkey 0.90, …), 99.1% hits of 41.0 block accesses, WAL 12.3 kB and 1.20 full pages per command; no autovacuum beside it; CPU per command: …`. */
export function describeProfile(p: BufferProfile, op: string): string {
  const top = p.top.map((r) => `${r.relation} ${r.readsPerOp.toFixed(2)}`).join(', ');
  const topAccesses = p.topAccesses.map((r) => `${r.relation} ${r.accessesPerOp.toFixed(1)}`).join(', ');
  return (
    `${p.readsPerOp.toFixed(2)} blocks read outside shared buffers per ${op}${top ? ` (${top})` : ''}, ` +
    `${(p.hitRatio * 100).toFixed(1)}% hits of ${p.accessesPerOp.toFixed(1)} block accesses${topAccesses ? ` (${topAccesses})` : ''}, WAL ${(p.walBytesPerOp / 1000).toFixed(1)} kB and ${p.fullPagesPerOp.toFixed(2)} full pages per ${op}` +
    (p.autovacuum.busyShare > 0
      ? `; autovacuum beside it ${(p.autovacuum.busyShare * 100).toFixed(0)}% of the time (${p.autovacuum.statements.join(', ')})`
      : '; no autovacuum beside it') +
    `; CPU per ${op}: this process ${p.cpu.appMsPerOp.toFixed(3)} ms (collecting ${p.cpu.gcMsPerOp.toFixed(3)})` +
    (p.cpu.postgresMsPerOp === null ? '' : `, PostgreSQL ${p.cpu.postgresMsPerOp.toFixed(3)} ms`) +
    (p.cpu.idleShare === null ? '' : `, the machine ${(p.cpu.idleShare * 100).toFixed(0)}% idle`)
  );
}
