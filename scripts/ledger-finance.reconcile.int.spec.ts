import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../tests/support/test-database.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import { CommandHandler, SYSTEM_ACTOR } from '../ledger/command-handler.js';
import { walletDecider } from '../ledger/wallet/decider.js';
import type { WalletCommand } from '../ledger/wallet/wallet.js';
import { deposit, recorded } from '../ledger/wallet/wallet.arbitraries.js';
import { comparePositions } from '../ledger/event-store/port.js';
import { foldJournal } from '../ledger/journal/fold.js';
import { trialBalance } from '../ledger/journal/trial-balance.js';
import { Projector } from '../projections/registry.js';
import { reconcileReadModels } from './ledger-reconcile.js';

const ctx = { actor: SYSTEM_ACTOR };

describe('trial balance: comparing with the read tables', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function ledger() {
    database = await createTestDatabase();
    const store = new PostgresEventStore(database.db);
    const projector = new Projector(database.projectionDb, store);
    await projector.start();
    const handler = new CommandHandler(store);
    const user = randomUUID();
    const run = async (command: WalletCommand) => {
      const r = await handler.handle(walletDecider, user, command, ctx);
      if (r.position) expect(await projector.waitFor(r.position, 10_000)).toBe(true);
    };
    const reconcile = async () => {
      const head = (await store.headPosition())!;
      return reconcileReadModels(database!, store, trialBalance((await foldJournal(store, { until: head })).entries()), head);
    };
    return { store, projector, run, reconcile };
  }

  it('given an idle ledger whose last event is a staff edit (no event of the balances table), when the trial balance runs, then it still compares the balances table', async () => {
    const { projector, run, reconcile } = await ledger();
    const id = randomUUID();
    await run(deposit('2', 'BTC', id));
    await run({ type: 'EditTransaction', transactionId: id, txType: 'adjustment', note: 'checked' });
    await projector.stop();

    // The live loop wrote the balances checkpoint at the deposit only: it is behind the head.
    expect(await reconcile()).toEqual([
      { table: 'balances', checked: true, differences: [] },
      { table: 'journal_entries', checked: true, differences: [] },
    ]);
  });

  it("given a balances event after the table's checkpoint, when the trial balance runs, then it does not compare that table", async () => {
    const { store, projector, run, reconcile } = await ledger();
    await run(recorded('3', 'Complete'));
    await projector.stop();
    // Appended with no projector running: the read tables have not seen it.
    const { position } = await new CommandHandler(store).handle(walletDecider, randomUUID(), recorded('1', 'Complete'), ctx);
    // PostgreSQL's log shows an event once no older transaction can still commit (up to 100 ms on).
    await expect.poll(async () => comparePositions((await store.headPosition())!, position!), { timeout: 5_000 }).toBe(0);

    expect(await reconcile()).toEqual([
      { table: 'balances', checked: false, differences: [] },
      { table: 'journal_entries', checked: false, differences: [] },
    ]);
  });
});
