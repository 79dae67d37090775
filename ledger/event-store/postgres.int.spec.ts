import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/db/schema.js';
import { describe, expect, it } from 'vitest';
import { eventStoreContract } from './contract.js';
import { PostgresEventStore } from './postgres.js';
import { createTestDatabase, usingPostgres } from '../../tests/support/test-database.js';
import { EventStoreDbEventStore } from './eventstoredb.js';

eventStoreContract(usingPostgres ? 'postgres (PostgreSQL server)' : 'postgres (PGlite)', async () => {
  const database = await createTestDatabase();
  const store = new PostgresEventStore(database.db);
  return {
    store,
    close: async () => {
      await store.close();
      await database.close();
    },
  };
});

describe('postgres event store: recorded times', () => {
  it('reads recorded_at as a Date of its milliseconds, the microseconds dropped', async () => {
    const database = await createTestDatabase();
    try {
      const store = new PostgresEventStore(database.db);
      const streamId = `test-${randomUUID()}`;
      const metadata = {
        actorId: 'tester',
        actorRole: 'SYSTEM',
        correlationId: randomUUID(),
        causationId: null,
        occurredAt: new Date().toISOString(),
      };
      await store.append(streamId, [{ eventId: randomUUID(), type: 'a', version: 1, data: {}, metadata }], {
        expectedRevision: 'no_stream',
      });
      for (const [stored, read] of [
        ['2026-01-02 03:04:05.678999+00', '2026-01-02T03:04:05.678Z'],
        ['2031-12-31 23:59:59.999999+00', '2031-12-31T23:59:59.999Z'],
        ['2026-06-01 00:00:00+00', '2026-06-01T00:00:00.000Z'],
      ]) {
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

describe('postgres event store: appends made together (group commit)', () => {
  const metadata = () => ({
    actorId: 'tester',
    actorRole: 'SYSTEM',
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: new Date().toISOString(),
  });
  /** Text that the batch statement's JSON document must carry exactly. */
  const note = 'a "quoted" \\ note,\ttab {x} 😀';
  const ev = (n: number, eventId: string = randomUUID()) => ({
    eventId,
    type: 'test.happened',
    version: 1,
    data: { n, note },
    metadata: metadata(),
  });

  async function withStore(run: (store: PostgresEventStore, db: Kysely<DB>) => Promise<void>) {
    const database = await createTestDatabase();
    const store = new PostgresEventStore(database.db);
    try {
      await run(store, database.db);
    } finally {
      await store.close();
      await database.close();
    }
  }

  it('writes appends to many streams in few transactions, each stream with its own revisions and order', async () => {
    await withStore(async (store) => {
      const old = [`test-${randomUUID()}`, `test-${randomUUID()}`, `test-${randomUUID()}`];
      for (const s of old) await store.append(s, [ev(0)], { expectedRevision: 'no_stream' });
      const fresh = Array.from({ length: 12 }, () => `test-${randomUUID()}`);
      const results = await Promise.all([
        ...fresh.map((s, i) => store.append(s, [ev(i), ev(i + 100)], { expectedRevision: 'no_stream' })),
        store.append(old[0]!, [ev(1), ev(2)], { expectedRevision: 'any' }),
        store.append(old[1]!, [ev(1)], { expectedRevision: 0n }),
        store.append(old[2]!, [ev(1), ev(2), ev(3)], { expectedRevision: 'stream_exists' }),
      ]);
      // Fifteen appends, at most two statements in flight: most of them shared a transaction.
      expect(new Set(results.map((r) => r.position.commit)).size).toBeLessThanOrEqual(4);
      expect(results.map((r) => r.nextExpectedRevision)).toEqual([...fresh.map(() => 1n), 2n, 1n, 3n]);
      for (const [i, s] of fresh.entries()) {
        const read = await store.readStream(s);
        expect(read.map((e) => [e.revision, e.data])).toEqual([
          [0n, { n: i, note }],
          [1n, { n: i + 100, note }],
        ]);
      }
      expect((await store.readStream(old[2]!)).map((e) => [e.revision, (e.data as { n: number }).n])).toEqual([
        [0n, 0],
        [1n, 1],
        [2n, 2],
        [3n, 3],
      ]);
      // The global log holds every event once, each stream's in revision order.
      const log = (await store.readAll({ maxCount: 10_000 })).filter((e) => e.streamId.startsWith('test-'));
      expect(log).toHaveLength(3 + 24 + 6);
      for (const s of [...old, ...fresh]) {
        const revisions = log.filter((e) => e.streamId === s).map((e) => e.revision);
        expect(revisions).toEqual(revisions.map((_, i) => BigInt(i)));
      }
    });
  });

  it('fails only the appends whose expectation fails; the others in their batch are written', async () => {
    await withStore(async (store) => {
      const existing = `test-${randomUUID()}`;
      await store.append(existing, [ev(0)], { expectedRevision: 'no_stream' });
      const missing = `test-${randomUUID()}`;
      const good = Array.from({ length: 6 }, () => `test-${randomUUID()}`);
      const settled = await Promise.allSettled([
        ...good.slice(0, 3).map((s) => store.append(s, [ev(1)], { expectedRevision: 'no_stream' })),
        store.append(existing, [ev(1)], { expectedRevision: 5n }),
        store.append(missing, [ev(1)], { expectedRevision: 'stream_exists' }),
        ...good.slice(3).map((s) => store.append(s, [ev(1)], { expectedRevision: 'no_stream' })),
      ]);
      expect(settled.map((r) => r.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'rejected',
        'rejected',
        'fulfilled',
        'fulfilled',
        'fulfilled',
      ]);
      expect((settled[3] as PromiseRejectedResult).reason).toMatchObject({ name: 'WrongExpectedVersionError', expected: 5n, actual: 0n });
      expect((settled[4] as PromiseRejectedResult).reason).toMatchObject({ name: 'WrongExpectedVersionError', actual: 'no_stream' });
      expect(await store.readStream(existing)).toHaveLength(1);
      expect(await store.readStream(missing)).toHaveLength(0);
      for (const s of good) expect(await store.readStream(s)).toHaveLength(1);
    });
  });

  it('a reused event id fails its own append only; a retry of a stored append answers as before', async () => {
    await withStore(async (store) => {
      const first = `test-${randomUUID()}`;
      const stored = [ev(0), ev(1)];
      const original = await store.append(first, stored, { expectedRevision: 'no_stream' });
      const others = Array.from({ length: 5 }, () => `test-${randomUUID()}`);
      const thief = `test-${randomUUID()}`;
      const settled = await Promise.allSettled([
        ...others.map((s) => store.append(s, [ev(2)], { expectedRevision: 'no_stream' })),
        store.append(thief, [ev(3, stored[0]!.eventId)], { expectedRevision: 'no_stream' }),
        store.append(first, stored, { expectedRevision: 'no_stream' }),
      ]);
      expect(settled.map((r) => r.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      expect((settled[5] as PromiseRejectedResult).reason).toMatchObject({ name: 'DuplicateEventIdError' });
      expect((settled[6] as PromiseFulfilledResult<unknown>).value).toEqual({ ...original, alreadyStored: true });
      for (const s of others) expect(await store.readStream(s)).toHaveLength(1);
      expect(await store.readStream(thief)).toHaveLength(0);
      expect(await store.readStream(first)).toHaveLength(2);
    });
  });

  it('appends to one stream at once all land, with contiguous revisions, beside a large append', async () => {
    await withStore(async (store) => {
      const s = `test-${randomUUID()}`;
      const large = `test-${randomUUID()}`;
      const [big, ...results] = await Promise.all([
        store.append(
          large,
          Array.from({ length: 40 }, (_, i) => ev(i)),
          { expectedRevision: 'no_stream' },
        ),
        ...Array.from({ length: 8 }, (_, i) => store.append(s, [ev(i)], { expectedRevision: 'any' })),
      ]);
      expect(results.map((r) => r.nextExpectedRevision).sort()).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n]);
      expect((await store.readStream(s)).map((e) => (e.data as { n: number }).n).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(big!.nextExpectedRevision).toBe(39n);
      expect((await store.readStream(large)).map((e) => e.revision)).toEqual(Array.from({ length: 40 }, (_, i) => BigInt(i)));
    });
  });

  it.skipIf(!usingPostgres)('appends to a stream held by another transaction do not hold back the appends to other streams', async () => {
    await withStore(async (store, db) => {
      const hot = `test-${randomUUID()}`;
      await store.append(hot, [ev(0)], { expectedRevision: 'no_stream' });
      // Another session holds the hot stream's row: its appends wait for that lock.
      await db.connection().execute(async (holder) => {
        await sql`begin`.execute(holder);
        await sql`select 1 from streams where stream_id = ${hot} for update`.execute(holder);
        const stuck = Array.from({ length: 4 }, (_, i) => store.append(hot, [ev(i + 1)], { expectedRevision: 'any' }));
        await new Promise((r) => setTimeout(r, 100));
        const others = Array.from({ length: 6 }, () => `test-${randomUUID()}`);
        const written = await Promise.race([
          Promise.all(others.map((o) => store.append(o, [ev(9)], { expectedRevision: 'no_stream' }))),
          new Promise<'held back'>((r) => setTimeout(() => r('held back'), 5000)),
        ]);
        await sql`commit`.execute(holder);
        expect(written).toHaveLength(6);
        expect((await Promise.all(stuck)).map((r) => r.nextExpectedRevision).sort()).toEqual([1n, 2n, 3n, 4n]);
      });
    });
  });
});
