import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { eventStoreContract } from './contract.js';
import { PostgresEventStore } from './postgres.js';
import { createTestDatabase, usingPostgres } from '../../tests/support/test-database.js';
import { EventStoreDbEventStore } from './eventstoredb.js';

eventStoreContract(usingPostgres ? 'postgres (PostgreSQL server)' : 'postgres (PGlite)', async () => {
  const database = await createTestDatabase();
  const store = new PostgresEventStore(database.db);
  return { store, close: async () => { await store.close(); await database.close(); } };
});

describe('postgres event store: recorded times', () => {
  it('reads recorded_at as a Date of its milliseconds, the microseconds dropped', async () => {
    const database = await createTestDatabase();
    try {
      const store = new PostgresEventStore(database.db);
      const streamId = `test-${randomUUID()}`;
      const metadata = { actorId: 'tester', actorRole: 'SYSTEM', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() };
      await store.append(streamId, [{ eventId: randomUUID(), type: 'a', version: 1, data: {}, metadata }], { expectedRevision: 'no_stream' });
      for (const [stored, read] of [['2026-01-02 03:04:05.678999+00', '2026-01-02T03:04:05.678Z'], ['2031-12-31 23:59:59.999999+00', '2031-12-31T23:59:59.999Z'], ['2026-06-01 00:00:00+00', '2026-06-01T00:00:00.000Z']]) {
        await sql`update events set recorded_at = ${stored}::timestamptz where stream_id = ${streamId}`.execute(database.db);
        const [fromStream] = await store.readStream(streamId);
        const fromLog = (await store.readAll({ maxCount: 10_000 })).find((e) => e.streamId === streamId);
        expect([fromStream!.recordedAt.toISOString(), fromLog?.recordedAt.toISOString()]).toEqual([read, read]);
      }
    } finally {
      await database.close();
    }
  });
});

if (process.env.EVENTSTORE_URL) {
  eventStoreContract('eventstoredb', async () => {
    const store = new EventStoreDbEventStore(process.env.EVENTSTORE_URL!);
    return { store, close: () => store.close() };
  });
}
