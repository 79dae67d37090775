import { sql, type Kysely } from 'kysely';
import type { EventStoreTables as DB } from './tables.js';
import { COLUMNS, eventTables, toRecorded, type EventRow, type WithEventTables } from './postgres-reads.js';
import { contentHash, GENESIS } from './chain.js';

/** What `ledger seal --backfill` did. */
export interface BackfillResult {
  streams: number;
  events: number;
  /** Streams with hashes on some events and none on others: left as they are, for an operator to look at. */
  skipped: string[];
}

/**
 * Chains the events appended before the hash chain existed (migration 0034): each stream whose
 * events have no hash, one transaction each, with the stream's row locked so that no append
 * comes between; its events' hashes from GENESIS in revision order, then its head hash. A
 * stream that holds hashes already is never rewritten: one with some events chained and some
 * not is skipped and named (a hash set to null by hand looks like that).
 */
export async function backfillChains<T extends DB>(
  tables: WithEventTables<T>,
  onProgress?: (events: number) => void,
): Promise<BackfillResult> {
  const db = eventTables(tables) as Kysely<DB>;
  const { rows: streams } = await sql<{
    stream_id: string;
  }>`select distinct stream_id from events where hash is null order by stream_id`.execute(db);
  const result: BackfillResult = { streams: 0, events: 0, skipped: [] };
  for (const { stream_id: streamId } of streams) {
    await db.transaction().execute(async (trx) => {
      await sql`select revision from streams where stream_id = ${streamId} for update`.execute(trx);
      const { rows } = await sql<EventRow>`select ${COLUMNS} from events where stream_id = ${streamId} order by stream_revision`.execute(
        trx,
      );
      const events = rows.map(toRecorded);
      if (events.some((e) => e.hash)) {
        result.skipped.push(streamId);
        return;
      }
      let prev = GENESIS;
      const ids: string[] = [];
      const hashes: string[] = [];
      for (const e of events) {
        prev = contentHash(e, prev);
        ids.push(e.eventId);
        hashes.push(prev);
      }
      await sql`update events e set hash = decode(v.h, 'hex')
        from unnest(${ids}::uuid[], ${hashes}::text[]) as v(id, h) where e.event_id = v.id`.execute(trx);
      await sql`update streams set head_hash = decode(${prev}::text, 'hex') where stream_id = ${streamId}`.execute(trx);
      result.streams++;
      result.events += events.length;
    });
    onProgress?.(result.events);
  }
  return result;
}
