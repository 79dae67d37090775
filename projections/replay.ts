import { sql, type Kysely } from 'kysely';
import type { DB } from '../server/db/schema.js';
import type { EventStore, Position } from '../ledger/event-store/port.js';
import type { Projection } from './projection.js';
import { ProjectionRunner } from './runner.js';

export interface ReplayResult {
  name: string;
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

/**
 * Rebuilds one read model from the log: empties its tables and checkpoint in one
 * transaction, then applies the whole log in large batches.
 */
export async function replayProjection(
  db: Kysely<DB>,
  store: EventStore,
  projection: Projection,
  opts: { batchSize?: number; until?: Position | null; onProgress?: (events: number) => void } = {},
): Promise<ReplayResult> {
  await db.transaction().execute(async (trx) => {
    for (const t of projection.tables) await sql`truncate table ${sql.table(t)}`.execute(trx);
    await trx.deleteFrom('projection_checkpoints').where('name', '=', projection.name).execute();
  });
  const runner = new ProjectionRunner(db, store, projection, { batchSize: opts.batchSize ?? 5000 });
  const until = opts.until === undefined ? await store.headPosition() : opts.until;
  const t0 = performance.now();
  const events = await runner.catchUp({ until, onBatch: (n) => opts.onProgress?.(n) });
  const seconds = (performance.now() - t0) / 1000;
  return { name: projection.name, events, seconds, eventsPerSecond: seconds > 0 ? Math.round(events / seconds) : events };
}
