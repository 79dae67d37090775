import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestDatabase, type TestDatabase } from '../tests/support/test-database.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import { CommandHandler, SYSTEM_ACTOR } from '../ledger/command-handler.js';
import { walletDecider } from '../ledger/wallet/decider.js';
import { decide, initialState, WalletError, type WalletCommand } from '../ledger/wallet/wallet.js';
import { toNewEvents } from '../ledger/command-handler.js';
import { replayProjection, replayProjections } from './replay.js';
import { verifyReadModels } from './verify.js';
import { commandFor, deposit, recorded, stepArb, withdrawal } from '../ledger/wallet/wallet.arbitraries.js';
import type { WalletEvent } from '../ledger/wallet/events.js';
import { PROJECTIONS, Projector } from './registry.js';
import { ProjectionRunner } from './runner.js';
import { START } from '../ledger/event-store/port.js';
import type { Projection } from './projection.js';
import { balancesProjection } from './balances.js';
import { transactionsProjection } from './transactions.js';
import { journalProjection } from './journal.js';
import { foldWalletBalances, readBalanceRows } from './read-models.js';
import { sql } from 'kysely';

const ctx = { actor: SYSTEM_ACTOR };

describe('projections', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('keep balances and transactions as the commands left them, readable as soon as the command returns', async () => {
    database = await createTestDatabase();
    const store = new PostgresEventStore(database.db);
    const projector = new Projector(database.projectionDb, store);
    await projector.start();
    const handler = new CommandHandler(store);
    const user = randomUUID();
    const dep = randomUUID();
    await handler.handle(walletDecider, user, recorded('3.03', 'Complete', 'ETH'), ctx);
    await handler.handle(walletDecider, user, deposit('1', 'ETH', dep), ctx);
    const result = await handler.handle(walletDecider, user, withdrawal('2', 'ETH'), ctx);
    expect(await projector.waitFor(result.position!, 5_000)).toBe(true);

    const balance = await database.db.selectFrom('balances').selectAll().where('user_id', '=', user).executeTakeFirstOrThrow();
    expect([balance.asset_id, Number(balance.balance), balance.pending_deposits, balance.pending_withdrawals]).toEqual([
      'ETH',
      3.03,
      '0.990000000000000000',
      '-2.020000000000000000',
    ]);
    const deposits = await database.db.selectFrom('transactions').selectAll().where('id', '=', dep).execute();
    expect(deposits[0]).toMatchObject({ status: 'Pending', type: 'deposit', amount: '0.990000000000000000', fee: '0.010000000000000000' });

    const settled = await handler.handle(
      walletDecider,
      user,
      { type: 'SettleTransaction', transactionId: dep, by: { system: 'test' } },
      ctx,
    );
    await projector.waitFor(settled.position!, 5_000);
    const after = await database.db.selectFrom('transactions').select('status').where('id', '=', dep).executeTakeFirstOrThrow();
    expect(after.status).toBe('Complete');
    expect(await readBalanceRows(database.db)).toEqual(await foldWalletBalances(store));
    await projector.stop();
  });

  it('a page that fails to apply is reported with its retry delay and retried until it passes, nothing lost', async () => {
    database = await createTestDatabase();
    const store = new PostgresEventStore(database.db);
    const handler = new CommandHandler(store);
    const user = randomUUID();
    let last;
    for (let i = 0; i < 5; i++) last = await handler.handle(walletDecider, user, recorded(`${i + 1}`, 'Complete', 'BTC'), ctx);
    let failuresLeft = 2;
    const flaky = {
      ...balancesProjection,
      async apply(...args: Parameters<typeof balancesProjection.apply>) {
        if (failuresLeft-- > 0) throw new Error('connection reset');
        return balancesProjection.apply(...args);
      },
    };
    const projector = new Projector(database.projectionDb, store, [flaky]);
    const reported: { message: string; retryInMs: number }[] = [];
    projector.on('failed', (err: Error, retryInMs: number) => reported.push({ message: err.message, retryInMs }));
    await projector.start();
    expect(await projector.waitFor(last!.position!, 10_000)).toBe(true);
    await projector.stop();
    expect(reported).toEqual([
      { message: 'connection reset', retryInMs: 500 },
      { message: 'connection reset', retryInMs: 1000 },
    ]);
    const row = await database.db.selectFrom('balances').select('balance').where('user_id', '=', user).executeTakeFirstOrThrow();
    expect(Number(row.balance)).toBe(15);
  });

  it('a projector waiting out its backoff after failed pages retries at once when a new commit is waited for (the database is back)', async () => {
    database = await createTestDatabase();
    const store = new PostgresEventStore(database.db);
    const handler = new CommandHandler(store);
    const user = randomUUID();
    await handler.handle(walletDecider, user, recorded('1', 'Complete', 'BTC'), ctx);
    // Three failed pages (a database lost for a while): the next retry is 4 s away.
    let failuresLeft = 3;
    const flaky = {
      ...balancesProjection,
      async apply(...args: Parameters<typeof balancesProjection.apply>) {
        if (failuresLeft-- > 0) throw new Error('Connection terminated unexpectedly');
        return balancesProjection.apply(...args);
      },
    };
    const projector = new Projector(database.projectionDb, store, [flaky]);
    const reported: number[] = [];
    const backingOff = new Promise<void>((resolve) =>
      projector.on('failed', (_err: Error, retryInMs: number) => {
        reported.push(retryInMs);
        if (retryInMs === 2_000) setTimeout(resolve, 100);
      }),
    );
    await projector.start();
    await backingOff;
    const second = await handler.handle(walletDecider, user, recorded('2', 'Complete', 'BTC'), ctx);
    const started = Date.now();
    expect(await projector.waitFor(second.position!, 1_500)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_500);
    await projector.stop();
    expect(reported).toEqual([500, 1_000, 2_000]);
    const row = await database.db.selectFrom('balances').select('balance').where('user_id', '=', user).executeTakeFirstOrThrow();
    expect(Number(row.balance)).toBe(3);
  });

  it('a projector that dies mid-batch loses nothing and doubles nothing when it starts again', async () => {
    database = await createTestDatabase();
    const store = new PostgresEventStore(database.db);
    const handler = new CommandHandler(store);
    const users = [randomUUID(), randomUUID(), randomUUID()];
    let last;
    for (let i = 0; i < 30; i++) {
      const user = users[i % users.length]!;
      last = await handler.handle(walletDecider, user, i % 2 ? recorded(`${i}.5`, 'Complete', 'BTC') : deposit(`${i + 1}`, 'BTC'), ctx);
    }
    // First life: the second batch fails after its rows were written, before the checkpoint.
    let batches = 0;
    const crashing = new Projector(database.projectionDb, store, [balancesProjection, transactionsProjection], {
      batchSize: 7,
      beforeCheckpoint: () => {
        if (++batches === 2) throw new Error('power cut');
      },
    });
    const head = last!.position!;
    for (const runner of crashing.runners) {
      await expect(runner.catchUp({ until: head })).rejects.toThrow('power cut');
      batches = 0;
    }
    // The failed batch left nothing behind: one batch of 7 events is in each read model.
    const cp = await database.db.selectFrom('projection_checkpoints').selectAll().orderBy('name').execute();
    expect(cp.map((c) => Number(c.events_applied))).toEqual([7, 7]);
    expect(
      await database.db
        .selectFrom('transactions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual({ n: '7' });

    // Second life: a fresh projector continues from the checkpoint.
    const projector = new Projector(database.projectionDb, store);
    await projector.start();
    expect(await projector.waitFor(head, 10_000)).toBe(true);
    await projector.stop();
    expect(
      await database.db
        .selectFrom('transactions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual({ n: '30' });
    expect(await readBalanceRows(database.db)).toEqual(await foldWalletBalances(store));
  });

  it('a shared batch whose checkpoint an operator moved applies nothing, then follows the operator without doubling', async () => {
    database = await createTestDatabase();
    const store = new PostgresEventStore(database.db);
    const handler = new CommandHandler(store);
    const user = randomUUID();
    for (let i = 0; i < 6; i++) await handler.handle(walletDecider, user, recorded(`${i + 1}`, 'Complete', 'BTC'), ctx);
    // The live process loaded its checkpoints (the start of the log) ...
    const live = [
      new ProjectionRunner(database.db, store, balancesProjection),
      new ProjectionRunner(database.db, store, transactionsProjection),
    ];
    for (const r of live) r.resetTo(await r.loadCheckpoint());
    // ... then an operator brought balances up to the head on their own.
    await new ProjectionRunner(database.db, store, balancesProjection).catchUp();
    const page = await store.readAll({ maxCount: 100 });

    expect(await ProjectionRunner.applyTogether(database.db, live, page)).toBe(true);
    // Rolled back: transactions got nothing, and balances follow the operator's checkpoint.
    expect(
      await database.db
        .selectFrom('transactions')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual({ n: '0' });
    expect(live[0]!.position).toEqual(page[page.length - 1]!.position);
    expect(live[1]!.position).toEqual(START);

    expect(await ProjectionRunner.applyTogether(database.db, live, page)).toBe(false);
    expect(
      await database.db
        .selectFrom('transactions')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual({ n: '6' });
    // Balances were not applied a second time: 1 + 2 + ... + 6 = 21 BTC.
    expect(await readBalanceRows(database.db)).toEqual(await foldWalletBalances(store));
    const balance = await database.db.selectFrom('balances').select('balance').where('user_id', '=', user).executeTakeFirstOrThrow();
    expect(Number(balance.balance)).toBe(21);
  });

  it('replay all in one pass over small pages writes what each read model replayed alone writes, also when another process moves a checkpoint midway', async () => {
    database = await createTestDatabase();
    const db = database.db;
    const store = new PostgresEventStore(db);
    const handler = new CommandHandler(store);
    const users = [randomUUID(), randomUUID(), randomUUID()];
    for (let i = 0; i < 30; i++) {
      const user = users[i % 3]!;
      const id = randomUUID();
      await handler.handle(
        walletDecider,
        user,
        i % 4 === 0 ? recorded(`${i + 1}.25`, 'Complete', 'ETH') : deposit(`${i + 1}`, 'BTC', id),
        ctx,
      );
      if (i % 4 === 1)
        await handler.handle(walletDecider, user, { type: 'SettleTransaction', transactionId: id, by: { system: 'test' } }, ctx);
      if (i % 4 === 2) await handler.handle(walletDecider, user, { type: 'FailTransaction', transactionId: id, reason: null }, ctx);
    }
    const total = Number((await sql<{ n: string }>`select count(*) as n from events`.execute(db)).rows[0]!.n);
    const tables = PROJECTIONS.flatMap((p) => p.tables);
    const snapshot = async () => {
      const out: Record<string, string[]> = {};
      for (const t of tables)
        out[t] = (await sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(db)).rows.map((r) => JSON.stringify(r)).sort();
      return out;
    };
    for (const p of PROJECTIONS) await replayProjection(db, store, p);
    const alone = await snapshot();
    expect(alone.transactions).toHaveLength(30);

    // Pages of 3 events: the read models go through 19 pages at their own pace. When the
    // slowest has passed the first page, another process takes balances to the head itself.
    const progress: number[] = [];
    let operator: Promise<number> | null = null;
    const [result] = await replayProjections(db, store, PROJECTIONS, {
      batchSize: 3,
      onProgress: (n) => {
        progress.push(n);
        operator ??= new ProjectionRunner(db, store, balancesProjection).catchUp();
      },
    });
    await operator;
    expect(result!.events).toBe(total);
    expect(progress.length).toBeGreaterThan(5);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(new Set(progress).size).toBe(progress.length);
    expect(progress.at(-1)).toBe(total);
    expect(await snapshot()).toEqual(alone);
    expect(await readBalanceRows(db)).toEqual(await foldWalletBalances(store));
    // The rebuilt tables' statistics are gathered: the planner counts their rows as they are.
    const { rows: stats } = await sql<{ reltuples: number }>`
      select reltuples from pg_class where oid = 'public.transactions'::regclass`.execute(db);
    expect(Number(stats[0]!.reltuples)).toBe(30);
    const head = await store.committedHead();
    const checkpoints = await db.selectFrom('projection_checkpoints').select(['name', 'commit_position', 'prepare_position']).execute();
    for (const p of PROJECTIONS) {
      expect(
        checkpoints.find((c) => c.name === p.name),
        p.name,
      ).toMatchObject({ commit_position: String(head!.commit), prepare_position: String(head!.prepare) });
    }
  });

  it('replay all stops at the first read model that fails, reports its error, and leaves nothing running', async () => {
    database = await createTestDatabase();
    const db = database.db;
    const store = new PostgresEventStore(db);
    const handler = new CommandHandler(store);
    const user = randomUUID();
    for (let i = 0; i < 30; i++) await handler.handle(walletDecider, user, recorded(`${i + 1}`, 'Complete', 'BTC'), ctx);
    let pagesSeen = 0;
    const failing: Projection = {
      name: 'failing',
      tables: [],
      handles: () => true,
      apply: async () => {
        if (++pagesSeen === 3) throw new Error('disk full');
      },
    };
    // Every read model asks for its next page while its current one is written.
    await expect(
      replayProjections(db, store, [balancesProjection, failing, transactionsProjection, journalProjection], { batchSize: 3 }),
    ).rejects.toThrow('disk full');
    const checkpoints = () => db.selectFrom('projection_checkpoints').select(['name', 'prepare_position']).orderBy('name').execute();
    const after = await checkpoints();
    await new Promise((r) => setTimeout(r, 300));
    expect(await checkpoints()).toEqual(after);
    // The others stopped within the reader's lead of the failed page, short of the head.
    const head = await store.committedHead();
    for (const name of ['balances', 'transactions', 'journal']) {
      expect(BigInt(after.find((c) => c.name === name)!.prepare_position)).toBeLessThan(head!.prepare);
    }
    expect(pagesSeen).toBe(3);

    const [again] = await replayProjections(db, store, [balancesProjection, transactionsProjection, journalProjection], { batchSize: 3 });
    expect(again!.events).toBe(30);
    expect(await readBalanceRows(db)).toEqual(await foldWalletBalances(store));
  });

  it('replays a batch that opens thousands of transactions (past the 65,535-parameter limit of one statement)', async () => {
    database = await createTestDatabase();
    const store = new PostgresEventStore(database.db);
    const user = randomUUID();
    const credits = Array.from({ length: 6000 }, (_, i) => recorded(`${i + 1}.000000000000000001`, i % 3 ? 'Complete' : 'Pending'));
    const events = credits.flatMap((c) => decide(c, initialState()));
    for (let i = 0; i < events.length; i += 1000) {
      await store.append(`wallet-${user}`, toNewEvents(walletDecider, `wallet-${user}`, events.slice(i, i + 1000), ctx), {
        expectedRevision: 'any',
      });
    }
    const result = await replayProjection(database.db, store, transactionsProjection, { batchSize: 5000 });
    expect(result.events).toBe(6000);
    const count = await database.db
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(6000);
    await replayProjection(database.db, store, balancesProjection, { batchSize: 5000 });
    const report = await verifyReadModels(database.db, store, { projections: [balancesProjection, transactionsProjection] });
    expect(report.ok).toBe(true);
  });

  it('writes every sent date exactly, dates far from 1970 included', async () => {
    database = await createTestDatabase();
    const store = new PostgresEventStore(database.db);
    const user = randomUUID();
    const sentAts = [
      '2026-11-25T09:15:00.123Z',
      '2300-06-01T12:00:00.000Z',
      '0050-03-01T00:00:00.000Z',
      '1999-12-31T23:59:59.999Z',
      '2026-11-25T10:00:00+15:30',
    ];
    const commands = sentAts.map(
      (sentAt, i) => ({ ...recorded(`${i + 1}.5`, 'Pending'), sentAt }) as Extract<WalletCommand, { type: 'RecordTransaction' }>,
    );
    const events = commands.flatMap((c) => decide(c, initialState()));
    await store.append(`wallet-${user}`, toNewEvents(walletDecider, `wallet-${user}`, events, ctx), { expectedRevision: 'any' });
    const stored = async () =>
      (
        await sql<{
          id: string;
          sent_at: string;
          amount: string;
        }>`select id, to_char(sent_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as sent_at, amount::text from transactions order by amount`.execute(
          database!.db,
        )
      ).rows;
    const expected = commands.map((c) => ({
      id: (c as { transactionId: string }).transactionId,
      sent_at: new Date(c.sentAt).toISOString().slice(0, 23),
      amount: `${c.amount.toFixed(18)}`,
    }));
    // One batch (a far date sends it all as text), then one event per batch (the near dates in binary).
    for (const batchSize of [5000, 1]) {
      await replayProjection(database.db, store, transactionsProjection, { batchSize });
      expect(await stored()).toEqual(expected);
    }
  });

  it('property: for random command sequences the balances table equals the fold of the events', async () => {
    database = await createTestDatabase();
    const store = new PostgresEventStore(database.db);
    const projector = new Projector(database.projectionDb, store);
    await projector.start();
    const handler = new CommandHandler(store);
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { maxLength: 25 }), async (steps) => {
        const user = randomUUID();
        let history: WalletEvent[] = [];
        for (const step of steps) {
          const command = commandFor(step, history);
          if (!command) continue;
          try {
            const r = await handler.handle(walletDecider, user, command, ctx);
            history = [...history, ...r.events];
            if (r.position) expect(await projector.waitFor(r.position, 5_000)).toBe(true);
          } catch (err) {
            if (!(err instanceof WalletError)) throw err;
          }
        }
        const rows = await readBalanceRows(database!.db);
        for (const r of rows.values()) expect(Number(r.balance) + Number(r.pending_withdrawals)).toBeGreaterThanOrEqual(0);
        expect(rows).toEqual(await foldWalletBalances(store));
      }),
      { numRuns: 25 },
    );
    await projector.stop();
  });
});
