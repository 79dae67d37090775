import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../../tests/support/test-database.js';
import { PostgresEventStore, readAllFrom } from './postgres.js';
import { readUntil } from '../../projections/runner.js';
import { comparePositions, formatPosition, START, type NewEvent, type RecordedEvent } from './port.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const event = (): NewEvent => ({
  eventId: randomUUID(),
  type: 'test.appended',
  version: 1,
  data: {},
  metadata: {
    actorId: 'tester',
    actorRole: 'SYSTEM',
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: new Date().toISOString(),
  },
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
      (
        await sql<{ global_position: string; event_id: string }>`
        select global_position, event_id from events where global_position > ${after.toString()} order by global_position`.execute(db)
      ).rows;

    const a = event();
    const b = event();
    const appendingA = store.append(streamA, [a], { expectedRevision: 'no_stream' });
    await aHasPosition; // A holds the lower position but has not committed
    const appendedB = await store.append(`early-${randomUUID()}`, [b], { expectedRevision: 'no_stream' });

    // Naive reader: sees B, remembers B's position as its checkpoint.
    const naiveFirst = await naiveRead(0n);
    expect(naiveFirst.map((r) => r.event_id)).toEqual([b.eventId]);
    const naiveCheckpoint = BigInt(naiveFirst[0]!.global_position);
    // Ours: nothing yet, because a transaction older than B is still open.
    expect(await store.readAll()).toEqual([]);
    // Nothing to follow from yet, but B is committed: a catch-up started now reads to B, once A is in.
    expect(await store.headPosition()).toBeNull();
    const committed = await store.committedHead();
    expect(committed && formatPosition(committed)).toBe(formatPosition(appendedB.position));
    const caughtUp = readUntil(store, START, committed!, 10);

    releaseA();
    await appendingA;
    expect((await caughtUp).map((e) => e.eventId)).toEqual([a.eventId, b.eventId]);

    // Naive reader continues after B and never sees A: A's position is below its checkpoint.
    const naiveSecond = await naiveRead(naiveCheckpoint);
    expect(naiveSecond.map((r) => r.event_id)).not.toContain(a.eventId);
    // Ours: both, A first (it began first), and nothing twice.
    expect((await store.readAll()).map((e) => e.eventId)).toEqual([a.eventId, b.eventId]);
  });

  // Transaction ids are cluster-wide: another database's transactions appear in this one's
  // snapshots. One that ends between the snapshot and the look-up of which database it
  // belongs to must not drag the horizon back below events already handed out.
  it.skipIf(!usingPostgres)('the head of the log never moves back while another database commits', async () => {
    database = await createTestDatabase();
    const other = await createTestDatabase({ migrate: false, poolSize: 8 });
    await sql`create table busy (n int)`.execute(other.db);
    const store = new PostgresEventStore(database.db);
    let stop = false;
    // Many short write transactions in another database, and appends in this one.
    const busy = Array.from({ length: 8 }, async () => {
      while (!stop) await sql`insert into busy values (1)`.execute(other.db);
    });
    const appending = (async () => {
      while (!stop) await store.append(`busy-${randomUUID()}`, [event()], { expectedRevision: 'no_stream' });
    })();
    const movedBack: string[] = [];
    let reads = 0;
    try {
      const deadline = Date.now() + 3_000;
      let last = await store.headPosition();
      while (Date.now() < deadline) {
        const head = await store.headPosition();
        reads++;
        if (last && (!head || comparePositions(head, last) < 0))
          movedBack.push(`${head ? formatPosition(head) : 'null'} after ${formatPosition(last)}`);
        if (head && (!last || comparePositions(head, last) > 0)) last = head;
      }
    } finally {
      stop = true;
      await Promise.all([...busy, appending]);
      await other.close();
    }
    expect(reads).toBeGreaterThan(100);
    expect(movedBack).toEqual([]);
  });

  // Inside a transaction PostgreSQL answers pg_stat_activity as it first read it. A read of the
  // log there must still know a transaction of another database that began since, or the
  // horizon stops below events a reader outside has already handed out (the shadow replay
  // catches up inside its swap transaction to a position the live runner has read).
  it.skipIf(!usingPostgres)(
    'a read inside a transaction sees what a reader outside has read, while another database holds a transaction open',
    async () => {
      database = await createTestDatabase();
      const other = await createTestDatabase({ migrate: false });
      const holder = new pg.Client({ connectionString: other.url });
      await holder.connect();
      const store = new PostgresEventStore(database.db);
      const readOutside = async (count: number) => {
        let events: RecordedEvent[] = [];
        for (const deadline = Date.now() + 5_000; events.length < count && Date.now() < deadline; await sleep(20))
          events = await store.readAll();
        return events.map((r) => r.eventId);
      };
      // A transaction of the other database is running before the first append, so reads after
      // it find that transaction in their snapshot and look up where it runs.
      await holder.query('begin');
      await holder.query('select pg_current_xact_id()');
      const first = event();
      await store.append(`held-${randomUUID()}`, [first], { expectedRevision: 'no_stream' });
      expect(await readOutside(1)).toEqual([first.eventId]);
      try {
        await database.db.transaction().execute(async (trx) => {
          expect((await readAllFrom(trx, START, 10)).map((r) => r.eventId)).toEqual([first.eventId]);
          // It ends; the next one begins before this append and stays open.
          await holder.query('commit');
          await holder.query('begin');
          await holder.query('select pg_current_xact_id()');
          const e = event();
          await store.append(`held-${randomUUID()}`, [e], { expectedRevision: 'no_stream' });
          expect(await readOutside(2)).toEqual([first.eventId, e.eventId]);
          expect((await readAllFrom(trx, START, 10)).map((r) => r.eventId)).toEqual([first.eventId, e.eventId]);
        });
      } finally {
        await holder.query('rollback');
        await holder.end();
        await other.close();
      }
    },
  );

  // Reads reuse the list of other databases' transactions for a while (OtherDatabaseXids).
  // A transaction of another database that begins after the list was read counts as one of
  // this database until the list is renewed: the log is held back, never skipped, and for no
  // longer than the list's age.
  it.skipIf(!usingPostgres)(
    'a transaction of another database that began after the list was read holds the log back only until the list is renewed',
    async () => {
      database = await createTestDatabase();
      const other = await createTestDatabase({ migrate: false });
      const holder = new pg.Client({ connectionString: other.url });
      await holder.connect();
      const maxAgeMs = 2_000;
      const store = new PostgresEventStore(database.db, { otherXidsMaxAgeMs: maxAgeMs });
      try {
        expect(await store.readAll()).toEqual([]); // the list is read now, with nothing running
        await holder.query('begin');
        await holder.query('select pg_current_xact_id()');
        const e = event();
        const appended = await store.append(`held-${randomUUID()}`, [e], { expectedRevision: 'no_stream' });
        const appendedAt = Date.now();
        // The list read before the other transaction began does not know it: it counts.
        expect(await store.readAll()).toEqual([]);
        expect(await store.headPosition()).toBeNull();
        // A catch-up started now still reads up to the append, which has committed.
        const committed = await store.committedHead();
        expect(committed && formatPosition(committed)).toBe(formatPosition(appended.position));
        const caughtUp = readUntil(store, START, committed!, 10);
        let events: RecordedEvent[] = [];
        while (events.length === 0 && Date.now() - appendedAt < maxAgeMs + 3_000) {
          await sleep(50);
          events = await store.readAll();
        }
        // Renewed, the list has it: the event is readable while that transaction is still open.
        expect(events.map((r) => r.eventId)).toEqual([e.eventId]);
        expect(Date.now() - appendedAt).toBeLessThan(maxAgeMs + 1_000);
        expect((await caughtUp).map((r) => r.eventId)).toEqual([e.eventId]);
      } finally {
        await holder.query('rollback');
        await holder.end();
        await other.close();
      }
    },
  );
});
