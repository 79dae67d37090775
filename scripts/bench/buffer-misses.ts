/**
 * What PostgreSQL did for a stretch of load, per operation: the blocks it had to fetch from
 * outside its shared buffers (per table and per index, from pg_statio), and the WAL it wrote
 * (bytes and full-page images, from pg_stat_wal). The growth phase prints it beside the
 * commands and the reads at each log size: a figure that slows down as the log grows shows
 * here which relation stopped fitting in memory (docs/performance.md).
 */
import type pg from 'pg';

export interface BufferProfile {
  /** Blocks fetched from outside shared buffers, per operation. */
  readsPerOp: number;
  /** The relations that fetched most, per operation, largest first (at most 4). */
  top: { relation: string; readsPerOp: number }[];
  /** The share of block accesses served from shared buffers. */
  hitRatio: number;
  walBytesPerOp: number;
  /** Full-page images written to the WAL per operation (a page's first change after a checkpoint). */
  fullPagesPerOp: number;
}

interface Counters {
  reads: Map<string, number>;
  hits: number;
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
  let hits = 0;
  for (const r of rows) {
    reads.set(r.relation, (reads.get(r.relation) ?? 0) + Number(r.read));
    hits += Number(r.hit);
  }
  return { reads, hits, walBytes: Number(wal.rows[0]!.bytes), fullPages: Number(wal.rows[0]!.fpi) };
}

/**
 * Runs `load`, which resolves with how many operations it completed, and profiles it. The
 * statistics are read after the backends have reported (they do when idle, at most once a second).
 */
export async function profileBuffers(pool: pg.Pool, load: () => Promise<number>): Promise<{ ops: number; profile: BufferProfile }> {
  const before = await counters(pool);
  const ops = await load();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const after = await counters(pool);
  const per = (n: number) => (ops > 0 ? n / ops : 0);
  const grew = [...after.reads].map(([relation, n]) => ({ relation, reads: n - (before.reads.get(relation) ?? 0) }));
  const reads = grew.reduce((sum, r) => sum + r.reads, 0);
  const hits = after.hits - before.hits;
  return {
    ops,
    profile: {
      readsPerOp: per(reads),
      top: grew
        .filter((r) => r.reads > 0)
        .sort((a, b) => b.reads - a.reads)
        .slice(0, 4)
        .map((r) => ({ relation: r.relation, readsPerOp: per(r.reads) })),
      hitRatio: reads + hits > 0 ? hits / (reads + hits) : 1,
      walBytesPerOp: per(after.walBytes - before.walBytes),
      fullPagesPerOp: per(after.fullPages - before.fullPages),
    },
  };
}

/** One line: `2.10 blocks read per command (events_pkey 0.90, …), 99.1% hits, WAL 12.3 kB and 1.20 full pages per command`. */
export function describeProfile(p: BufferProfile, op: string): string {
  const top = p.top.map((r) => `${r.relation} ${r.readsPerOp.toFixed(2)}`).join(', ');
  return (
    `${p.readsPerOp.toFixed(2)} blocks read outside shared buffers per ${op}${top ? ` (${top})` : ''}, ` +
    `${(p.hitRatio * 100).toFixed(1)}% hits, WAL ${(p.walBytesPerOp / 1000).toFixed(1)} kB and ${p.fullPagesPerOp.toFixed(2)} full pages per ${op}`
  );
}
