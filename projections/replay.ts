import { sql, type Kysely } from 'kysely';
import type { DB } from '../server/db/schema.js';
import { comparePositions, type EventStore, type Position, type RecordedEvent } from '../ledger/event-store/port.js';
import type { Projection } from './projection.js';
import { ProjectionRunner } from './runner.js';

export interface ReplayResult {
  name: string;
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

export interface ReplayOptions {
  batchSize?: number;
  /** Replay up to here (inclusive); default the head of the log; null: an empty log. */
  until?: Position | null;
  /** Write into this schema's copies of the tables and checkpoints (shadow replay); default the live ones. */
  schema?: string;
  onProgress?: (events: number) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long a replay waits for the read horizon to pass its target before giving up. */
const HORIZON_WAIT_MS = 60_000;
/** Read models written concurrently for one page of the log. */
const APPLY_CONCURRENCY = 2;

/** Empties the read models' tables and checkpoints, in one transaction. */
export async function resetReadModels(db: Kysely<DB>, projections: Projection[], schema = 'public'): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const p of projections) {
      for (const t of p.tables) await sql`truncate table ${sql.table(`${schema}.${t}`)}`.execute(trx);
    }
    await trx.withSchema(schema).deleteFrom('projection_checkpoints').where('name', 'in', projections.map((p) => p.name)).execute();
  });
}

/**
 * Brings several read models up to `until` reading the log once: each page is read one
 * time (the next one while the current one is written) and handed to every projection,
 * each in its own transaction with its own checkpoint, as the live runners do. A read
 * model whose checkpoint someone else moved (the live app projecting at the same time)
 * leaves the shared pass and finishes on its own.
 */
export async function catchUpTogether(
  db: Kysely<DB>,
  store: EventStore,
  projections: Projection[],
  opts: ReplayOptions = {},
): Promise<{ events: number; until: Position | null }> {
  const batchSize = opts.batchSize ?? 5000;
  const runners = projections.map((p) => new ProjectionRunner(db, store, p, { batchSize, schema: opts.schema }));
  for (const r of runners) r.resetTo(await r.loadCheckpoint());
  const until = opts.until === undefined ? await store.headPosition() : opts.until;
  if (!until || runners.length === 0) return { events: 0, until };

  // The shared pass starts at the lowest checkpoint; a runner ahead of a page skips it.
  let after = runners.reduce((min, r) => (comparePositions(r.position, min) < 0 ? r.position : min), runners[0]!.position);
  let active = runners.filter((r) => comparePositions(r.position, until) < 0);
  const stragglers: ProjectionRunner[] = [];
  let total = 0;
  let heldSince: number | null = null;
  const read = (from: Position) =>
    store.readAll({ after: from, maxCount: batchSize }).then((page) => page.filter((e) => comparePositions(e.position, until) <= 0));
  let next: Promise<RecordedEvent[]> | null = comparePositions(after, until) < 0 ? read(after) : null;

  while (next && active.length > 0) {
    const page = await next;
    next = null;
    if (page.length === 0) {
      // Events up to `until` exist but are not readable yet: an older transaction still holds
      // the read horizon back. Wait for it.
      heldSince ??= Date.now();
      if (Date.now() - heldSince > HORIZON_WAIT_MS) {
        throw new Error(`the log has not been readable past ${until.commit}/${until.prepare} for ${HORIZON_WAIT_MS / 1000} s: a long-running transaction holds it back`);
      }
      await sleep(20);
      next = read(after);
      continue;
    }
    heldSince = null;
    after = page[page.length - 1]!.position;
    if (comparePositions(after, until) < 0) next = read(after);
    // A few read models at a time: all of them at once only adds contention on a small machine.
    const moved = active.map(() => false);
    let nextRunner = 0;
    await Promise.all(
      Array.from({ length: Math.min(APPLY_CONCURRENCY, active.length) }, async () => {
        for (let i = nextRunner++; i < active.length; i = nextRunner++) {
          const r = active[i]!;
          if (comparePositions(r.position, after) >= 0) continue;
          const own = comparePositions(r.position, page[0]!.position) < 0 ? page : page.filter((e) => comparePositions(e.position, r.position) > 0);
          moved[i] = await r.applyBatch(own);
        }
      }),
    );
    active = active.filter((r, i) => {
      if (moved[i]) stragglers.push(r);
      return !moved[i];
    });
    total += page.length;
    opts.onProgress?.(total);
  }
  // Unhandled rejection guard: a prefetched page nobody waits for any more.
  await next?.catch(() => {});
  for (const r of stragglers) await r.catchUp({ until });
  return { events: total, until };
}

/**
 * Rebuilds read models from the log in one pass: empties their tables and checkpoints in
 * one transaction, then applies the whole log in large batches, reading it once for all.
 * Every result carries the same numbers (the log's events and the pass's time).
 */
export async function replayProjections(
  db: Kysely<DB>,
  store: EventStore,
  projections: Projection[],
  opts: ReplayOptions = {},
): Promise<ReplayResult[]> {
  await resetReadModels(db, projections, opts.schema);
  const until = opts.until === undefined ? await store.headPosition() : opts.until;
  const t0 = performance.now();
  const { events } = await catchUpTogether(db, store, projections, { ...opts, until });
  const seconds = (performance.now() - t0) / 1000;
  const eventsPerSecond = seconds > 0 ? Math.round(events / seconds) : events;
  return projections.map((p) => ({ name: p.name, events, seconds, eventsPerSecond }));
}

/** Rebuilds one read model from the log (see `replayProjections`). */
export async function replayProjection(
  db: Kysely<DB>,
  store: EventStore,
  projection: Projection,
  opts: ReplayOptions = {},
): Promise<ReplayResult> {
  const [result] = await replayProjections(db, store, [projection], opts);
  return result!;
}
