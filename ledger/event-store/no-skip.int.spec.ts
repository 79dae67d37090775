import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../../tests/support/test-database.js';
import { PostgresEventStore } from './postgres.js';
import type { NewEvent, RecordedEvent } from './port.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const event = (): NewEvent => ({
  eventId: randomUUID(),
  type: 'test.appended',
  version: 1,
  data: {},
  metadata: { actorId: 'tester', actorRole: 'SYSTEM', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() },
});

describe('the global log never skips an event', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('a subscriber running throughout sees every event of out-of-order committing appenders exactly once, in stream order', async () => {
    database = await createTestDatabase({ poolSize: 40 });
    // Each append sleeps inside its transaction after taking its global position, so
    // transactions commit in a different order than they took positions.
    const store = new PostgresEventStore(database.db, { beforeCommit: () => sleep(Math.random() * 25) });
    const seen: RecordedEvent[] = [];
    const subscription = store.subscribeAll();
    const consuming = (async () => {
      for (;;) {
        const batch = await subscription.nextBatch(100);
        if (batch.length === 0) return;
        seen.push(...batch);
      }
    })();

    const streams = Array.from({ length: 6 }, () => `nsk-${randomUUID()}`);
    const appended: string[] = [];
    const appenders = Array.from({ length: 24 }, async (_, w) => {
      for (let i = 0; i < 12; i++) {
        const events = [event(), ...(i % 3 === 0 ? [event()] : [])];
        await store.append(streams[(w + i) % streams.length]!, events, { expectedRevision: 'any' });
        appended.push(...events.map((e) => e.eventId));
      }
    });
    await Promise.all(appenders);
    const deadline = Date.now() + 20_000;
    while (seen.length < appended.length && Date.now() < deadline) await sleep(20);
    await subscription.close();
    await consuming;

    const ids = seen.map((e) => e.eventId);
    expect(new Set(ids).size).toBe(ids.length); // exactly once
    expect(new Set(ids)).toEqual(new Set(appended)); // none missing
    for (const s of streams) {
      const revisions = seen.filter((e) => e.streamId === s).map((e) => e.revision);
      expect(revisions).toEqual(revisions.map((_, i) => BigInt(i))); // 0, 1, 2 ... in order
    }
  });

  // PGlite is one session: a second writer cannot even start while the first is open,
  // so the out-of-order commit this test stages can only happen on a PostgreSQL server.
  it.skipIf(!usingPostgres)('a naive `global_position > last` reader loses the event of a late committer; ours does not', async () => {
    database = await createTestDatabase();
    let releaseA!: () => void;
    const aHeld = new Promise<void>((r) => (releaseA = r));
    const streamA = `late-${randomUUID()}`;
    let aInserted!: () => void;
    const aHasPosition = new Promise<void>((r) => (aInserted = r));
    const store = new PostgresEventStore(database.db, {
      beforeCommit: async (streamId) => {
        if (streamId === streamA) {
          aInserted();
          await aHeld;
        }
      },
    });
    const db = database.db;
    const naiveRead = async (after: bigint) =>
      (await sql<{ global_position: string; event_id: string }>`
        select global_position, event_id from events where global_position > ${after.toString()} order by global_position`.execute(db)).rows;

    const a = event();
    const b = event();
    const appendingA = store.append(streamA, [a], { expectedRevision: 'no_stream' });
    await aHasPosition; // A holds the lower position but has not committed
    await store.append(`early-${randomUUID()}`, [b], { expectedRevision: 'no_stream' });

    // Naive reader: sees B, remembers B's position as its checkpoint.
    const naiveFirst = await naiveRead(0n);
    expect(naiveFirst.map((r) => r.event_id)).toEqual([b.eventId]);
    const naiveCheckpoint = BigInt(naiveFirst[0]!.global_position);
    // Ours: nothing yet, because a transaction older than B is still open.
    expect(await store.readAll()).toEqual([]);

    releaseA();
    await appendingA;

    // Naive reader continues after B and never sees A: A's position is below its checkpoint.
    const naiveSecond = await naiveRead(naiveCheckpoint);
    expect(naiveSecond.map((r) => r.event_id)).not.toContain(a.eventId);
    // Ours: both, A first (it began first), and nothing twice.
    expect((await store.readAll()).map((e) => e.eventId)).toEqual([a.eventId, b.eventId]);
  });
});
