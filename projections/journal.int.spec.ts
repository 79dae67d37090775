import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../tests/support/test-database.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import { CommandHandler, SYSTEM_ACTOR } from '../ledger/command-handler.js';
import { walletDecider } from '../ledger/wallet/decider.js';
import { deposit, recorded, withdrawal } from '../ledger/wallet/wallet.arbitraries.js';
import { foldJournal } from '../ledger/journal/fold.js';
import { trialBalance } from '../ledger/journal/trial-balance.js';
import { Projector } from './registry.js';
import { ProjectionRunner } from './runner.js';
import { catchUpTogether, replayProjection } from './replay.js';
import { verifyReadModels } from './verify.js';
import { journalProjection } from './journal.js';

const ctx = { actor: SYSTEM_ACTOR };

describe('journal projection', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function setup() {
    database = await createTestDatabase();
    const store = new PostgresEventStore(database.db);
    const projector = new Projector(database.projectionDb, store);
    await projector.start();
    const handler = new CommandHandler(store);
    return { db: database.db, store, projector, handler };
  }

  it('posts every money event in balanced entries that reconcile with the balances, and verify agrees', async () => {
    const { db, store, projector, handler } = await setup();
    const user = randomUUID();
    const dep = randomUUID();
    const wd = randomUUID();
    await handler.handle(walletDecider, user, recorded('50', 'Complete', 'ETH'), ctx);
    await handler.handle(walletDecider, user, deposit('10', 'ETH', dep), ctx);
    const requested = await handler.handle(walletDecider, user, withdrawal('20', 'ETH', wd), ctx);
    expect(await projector.waitFor(requested.position!, 5_000)).toBe(true);
    // The journal remembers the transactions still Pending, and only those.
    const open = async () =>
      await db.selectFrom('journal_transactions').select(['transaction_id', 'status']).orderBy('transaction_id').execute();
    expect(await open()).toEqual([dep, wd].sort().map((id) => ({ transaction_id: id, status: 'Pending' })));
    await handler.handle(walletDecider, user, { type: 'SettleTransaction', transactionId: dep, by: { system: 'test' } }, ctx);
    const last = await handler.handle(walletDecider, user, { type: 'FailTransaction', transactionId: wd, reason: null }, ctx);
    expect(await projector.waitFor(last.position!, 5_000)).toBe(true);
    expect(await open()).toEqual([]);

    const unbalanced = await sql`select event_id from journal_entries group by event_id, asset_id having sum(amount) <> 0`.execute(db);
    expect(unbalanced.rows).toEqual([]);
    const byKind = await sql<{ account_kind: string; sum: string }>`
      select account_kind, sum(amount)::text as sum from journal_entries where asset_id = 'ETH' group by account_kind order by account_kind`.execute(
      db,
    );
    const sums = Object.fromEntries(byKind.rows.map((r) => [r.account_kind, Number(r.sum)]));
    // 50 credited by staff (a manual transaction: staff adjustments), a 10 deposit settled (9.9 net, 0.1 fee), a 20 withdrawal failed (hold returned).
    expect(sums).toEqual({
      available: 59.9,
      'staff-adjustments': -50,
      fees: 0.1,
      external: -10,
      'in-transit': 0,
      'pending-in': 0,
      'pending-out': 0,
    });
    const balance = await db.selectFrom('balances').select('balance').where('user_id', '=', user).executeTakeFirstOrThrow();
    expect(Number(balance.balance)).toBe(59.9);

    const tb = trialBalance((await foldJournal(store)).entries());
    expect(tb.lines).toEqual([
      expect.objectContaining({
        assetId: 'ETH',
        customerLiabilities: '59.9',
        feesEarned: '0.1',
        externalNet: '-10',
        adjustments: '0',
        staffAdjustments: '-50',
        total: '0',
        reconciles: true,
      }),
    ]);

    await projector.stop();
    const report = await verifyReadModels(db, store);
    expect(report.journal).toMatchObject({ ok: true, firstUnbalanced: null, firstUnbalancedInTable: null, customerMismatches: [] });
    expect(report.ok).toBe(true);
  });

  it('verify names the first event whose journal rows do not balance', async () => {
    const { db, store, projector, handler } = await setup();
    const user = randomUUID();
    await handler.handle(walletDecider, user, recorded('5', 'Complete', 'BTC'), ctx);
    const second = await handler.handle(walletDecider, user, recorded('7', 'Complete', 'BTC'), ctx);
    await projector.waitFor(second.position!, 5_000);
    await projector.stop();
    // Leg 0 of the event (journal_entries is a view over journal_postings, one row per event).
    await sql`update journal_postings set amounts[1] = amounts[1] + 1 where event_id = ${second.eventIds[0]!}`.execute(db);

    const report = await verifyReadModels(db, store);
    expect(report.ok).toBe(false);
    expect(report.journal?.firstUnbalancedInTable).toMatchObject({ eventId: second.eventIds[0], assetId: 'BTC', sum: '1' });
    // The log itself still balances: the damage is in the table.
    expect(report.journal?.firstUnbalanced).toBeNull();
  });

  it('replays a stored version-0 deposit request: read upcast to the current version, settled and posted with its fee', async () => {
    const { db, store, projector, handler } = await setup();
    const user = randomUUID();
    const transactionId = randomUUID();
    const old = {
      transactionId,
      assetId: 'BTC',
      amount: '0.99',
      fee: '0.01',
      sentAt: '2025-01-01T00:00:00.000Z',
      note: null,
      senderAddress: null,
      recipientAddress: null,
      txid: null,
      isHidden: false,
      requestId: null,
      paymentMethodId: randomUUID(),
    };
    await store.append(
      `wallet-${user}`,
      [
        {
          eventId: randomUUID(),
          type: 'wallet.deposit-requested',
          version: 0,
          data: old,
          metadata: {
            actorId: 'import',
            actorRole: 'SYSTEM',
            correlationId: randomUUID(),
            causationId: null,
            occurredAt: '2025-01-01T00:00:00.000Z',
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    const stored = await sql<{ event_version: number; data: Record<string, unknown> }>`select event_version, data from events`.execute(db);
    expect(stored.rows[0]).toMatchObject({ event_version: 0 });
    expect(stored.rows[0]!.data).not.toHaveProperty('requestedAmount');

    const [read] = await store.readStream(`wallet-${user}`);
    expect(read).toMatchObject({ version: 1, data: { ...old, requestedAmount: '1' } });

    // The decider folds the upcast event like any other: the deposit settles.
    const settled = await handler.handle(walletDecider, user, { type: 'SettleTransaction', transactionId, by: { system: 'test' } }, ctx);
    await projector.waitFor(settled.position!, 5_000);
    await projector.stop();
    await replayProjection(db, store, journalProjection);
    const rows = await sql<{ account_kind: string; amount: string }>`
      select account_kind, amount::text from journal_entries where transaction_id = ${transactionId} order by commit_position, prepare_position, leg`.execute(
      db,
    );
    expect(rows.rows.map((r) => `${r.account_kind} ${Number(r.amount)}`)).toEqual([
      'pending-in 0.99',
      'in-transit -0.99',
      'pending-in -0.99',
      'in-transit 0.99',
      'available 0.99',
      'fees 0.01',
      'external -1',
    ]);
    const tx = await db.selectFrom('transactions').select(['status', 'amount']).where('id', '=', transactionId).executeTakeFirstOrThrow();
    expect(tx.status).toBe('Complete');
  });

  it("a replay's planner (open transactions kept in memory from page to page) writes what the live projector wrote, also when it starts from a journal with open transactions", async () => {
    const { db, store, projector, handler } = await setup();
    const users = [randomUUID(), randomUUID()];
    const ids: string[] = [];
    for (const user of users) await handler.handle(walletDecider, user, recorded('100', 'Complete', 'ETH'), ctx);
    for (let i = 0; i < 12; i++) {
      const user = users[i % 2]!;
      const id = randomUUID();
      ids.push(id);
      await handler.handle(walletDecider, user, i % 3 === 0 ? withdrawal('1', 'ETH', id) : deposit(`${i + 1}.5`, 'ETH', id), ctx);
    }
    // Settled, failed and reclassified pages after they were opened; some stay Pending.
    for (const [i, id] of ids.entries()) {
      const user = users[i % 2]!;
      if (i % 4 === 0)
        await handler.handle(walletDecider, user, { type: 'SettleTransaction', transactionId: id, by: { system: 'test' } }, ctx);
      else if (i % 4 === 1) await handler.handle(walletDecider, user, { type: 'FailTransaction', transactionId: id, reason: null }, ctx);
      else if (i % 4 === 2)
        await handler.handle(walletDecider, user, { type: 'EditTransaction', transactionId: id, txType: 'adjustment' }, ctx);
    }
    const last = await handler.handle(
      walletDecider,
      users[0]!,
      { type: 'SettleTransaction', transactionId: ids[2]!, by: { system: 'test' } },
      ctx,
    );
    expect(await projector.waitFor(last.position!, 5_000)).toBe(true);
    await projector.stop();
    const snapshot = async () => ({
      postings: (await sql<Record<string, unknown>>`select * from journal_postings order by commit_position, prepare_position`.execute(db))
        .rows,
      open: (await sql<Record<string, unknown>>`select * from journal_transactions order by transaction_id`.execute(db)).rows,
    });
    const live = await snapshot();
    expect(live.open.length).toBeGreaterThan(0);
    expect(live.postings.length).toBe(21);

    // Pages of 2 events: most transactions close pages after they opened.
    await replayProjection(db, store, journalProjection, { batchSize: 2 });
    expect(await snapshot()).toEqual(live);

    // Half the log, then the rest: the second pass's planner starts from the open transactions the first left.
    const events = await store.readAll({ maxCount: 1000 });
    await replayProjection(db, store, journalProjection, { batchSize: 3, until: events[Math.floor(events.length / 2)]!.position });
    expect((await snapshot()).open.length).toBeGreaterThan(0);
    await catchUpTogether(db, store, [journalProjection], { batchSize: 3 });
    expect(await snapshot()).toEqual(live);

    // Another process takes the journal to the head in one transaction while the replay plans a
    // page ahead: whichever finds the checkpoint moved follows the other (the replay by dropping
    // its planner and finishing through apply), and the journal ends as the live one.
    let operator: Promise<number> | null = null;
    await replayProjection(db, store, journalProjection, {
      batchSize: 2,
      onProgress: () => void (operator ??= new ProjectionRunner(db, store, journalProjection, { batchSize: 1000 }).catchUp()),
    });
    expect(operator).not.toBeNull();
    await operator;
    expect(await snapshot()).toEqual(live);
  });
});
