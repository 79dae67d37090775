import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../tests/support/test-database.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import type { NewEvent } from '../ledger/event-store/port.js';
import { toNewEvents } from '../ledger/command-handler.js';
import { walletDecider } from '../ledger/wallet/decider.js';
import { decide, initialState, type WalletCommand } from '../ledger/wallet/wallet.js';
import { recorded as recordedCommand } from '../ledger/wallet/wallet.arbitraries.js';
import { walletStream } from '../ledger/wallet/events.js';
import { ProjectionRunner } from './runner.js';
import { replayProjections } from './replay.js';
import { transactionsProjection } from './transactions.js';
import { PROJECTIONS } from './registry.js';

type RecordTransaction = Extract<WalletCommand, { type: 'RecordTransaction' }>;

/** A credit whose note is `note`: rows of many sizes leave pages with scraps of room of many sizes. */
const recorded = (note: string | null): NewEvent[] =>
  toNewEvents(walletDecider, 'wallet', decide({ ...(recordedCommand('1') as RecordTransaction), note }, initialState()), {
    actor: { id: 'test', role: 'SYSTEM' },
  });

describe('the fill factor of the read models that take a row with each command', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const reloptions = async (table: string) =>
    (
      await sql<{ o: string[] | null }>`select reloptions as o from pg_class where oid = ${`public.${table}`}::regclass`.execute(
        database.db,
      )
    ).rows[0]!.o;

  it('is the one each projection declares, as migrated', async () => {
    const declared = PROJECTIONS.flatMap((p) => Object.entries(p.fillFactors ?? {}));
    expect(declared.length).toBeGreaterThan(0);
    for (const [table, fill] of declared) expect(await reloptions(table)).toEqual([`fillfactor=${fill}`]);
  });

  it('after a rebuild and a vacuum, rows of new commands go to the end of the table, not into the rebuilt pages', async () => {
    const db = database.db;
    const store = new PostgresEventStore(db);
    const users = Array.from({ length: 8 }, () => randomUUID());
    const seeded = Array.from({ length: 2_000 }, (_, i) => recorded(i % 7 === 0 ? null : 'n'.repeat((i * 37) % 600))).flat();
    for (let i = 0; i < seeded.length; i += 100) {
      await store.append(walletStream(users[(i / 100) % users.length]!), seeded.slice(i, i + 100), { expectedRevision: 'any' });
    }
    await replayProjections(db, store, [transactionsProjection]);
    expect(await reloptions('transactions')).toEqual(['fillfactor=90']);
    // Vacuum records every page's free space, where an insert looks for room.
    await sql`vacuum transactions`.execute(db);
    const { rows } = await sql<{ pages: number }>`select (pg_relation_size('transactions') / 8192)::int as pages`.execute(db);
    const pagesBefore = rows[0]!.pages;
    expect(pagesBefore).toBeGreaterThan(20);
    // The rebuild's last page, filled part way, takes the first rows; the others go to new pages.
    const fromLastPage = () =>
      sql<{ n: string }>`select count(*) as n from transactions where ctid >= ${`(${pagesBefore - 1},0)`}::tid`.execute(db);
    const rowsInLastPage = Number((await fromLastPage()).rows[0]!.n);

    // Commands one at a time, as the live runner writes them.
    const runner = new ProjectionRunner(db, store, transactionsProjection, { batchSize: 1 });
    for (let i = 0; i < 60; i++) {
      await store.append(walletStream(users[i % users.length]!), recorded(null), { expectedRevision: 'any' });
      await runner.catchUp();
    }
    expect(Number((await fromLastPage()).rows[0]!.n) - rowsInLastPage).toBe(60);
  });
});
