import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.js';
import { PostgresEventStore } from '../event-store/postgres.js';
import type { DB } from '../../server/db/schema.js';
import type { ReadStreamOptions, RecordedEvent } from '../event-store/port.js';
import { CommandHandler, SYSTEM_ACTOR } from '../command-handler.js';
import { walletDecider } from '../wallet/decider.js';
import { recorded, withdrawal } from '../wallet/wallet.arbitraries.js';
import { availableBalance, fold, WalletError } from '../wallet/wallet.js';
import type { WalletEvent } from '../wallet/events.js';
import { PostgresSnapshotStore } from './postgres-snapshots.js';

/** The store, counting the events a cold load reads. */
class CountingStore extends PostgresEventStore<DB> {
  read = 0;
  override async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    const events = await super.readStream(streamId, options);
    this.read += events.length;
    return events;
  }
}

describe('snapshots of a wallet', () => {
  let database: TestDatabase;
  let store: CountingStore;
  let snapshots: PostgresSnapshotStore;
  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 10 });
    store = new CountingStore(database.db);
    snapshots = new PostgresSnapshotStore(database.db);
  });
  afterAll(async () => {
    await database.close();
  });

  const handler = () => new CommandHandler(store, { snapshots: { store: snapshots, every: 5 } });
  /** A wallet of `credits` credits of 1 BTC, one command each, the snapshots written. */
  async function walletOf(credits: number): Promise<string> {
    const user = randomUUID();
    const h = handler();
    for (let i = 0; i < credits; i++)
      await h.handle(walletDecider, user, recorded('1'), { actor: SYSTEM_ACTOR, idempotencyKey: `credit-${i}` });
    await h.flushSnapshots();
    return user;
  }
  const fromZero = async (user: string) =>
    fold((await store.readStream(`wallet-${user}`)).map((e) => ({ type: e.type, data: e.data }) as WalletEvent));
  /**
   * A cold command: how many events it read. The snapshot its load may start (a load from zero
   * past N events takes one) is stored before it returns or throws, so that a test's next
   * change to the snapshots table is not overwritten by it.
   */
  async function coldWithdrawal(user: string, amount: string) {
    const h = handler();
    store.read = 0;
    try {
      await h.handle(walletDecider, user, withdrawal(amount), { actor: SYSTEM_ACTOR });
      return { read: store.read, handler: h };
    } finally {
      await h.flushSnapshots();
    }
  }

  it('takes one every N events and starts a cold load from the latest, with the same state as folding from zero', async () => {
    const user = await walletOf(13);
    const row = await database.db.selectFrom('snapshots').selectAll().where('stream_id', '=', `wallet-${user}`).executeTakeFirstOrThrow();
    expect(row.revision).toBe('9'); // after the events at 0..4 and 5..9
    const { read } = await coldWithdrawal(user, '12');
    expect(read).toBe(4); // the snapshot's own event (checked) and the three after it
    const state = await fromZero(user);
    expect(availableBalance(state, 'BTC').toFixed()).toBe('0.88'); // 13 less 12 plus the 1% fee
    // The withdrawal was decided on the right balance: a second one of that size is refused.
    await expect(handler().handle(walletDecider, user, withdrawal('1'), { actor: SYSTEM_ACTOR })).rejects.toBeInstanceOf(WalletError);
  });

  it('answers a retry whose key is older than the snapshot as the first attempt did, writing nothing', async () => {
    const user = await walletOf(7);
    const first = (await store.readStream(`wallet-${user}`))[1]!;
    const retry = await handler().handle(walletDecider, user, recorded('1'), { actor: SYSTEM_ACTOR, idempotencyKey: 'credit-1' });
    expect(retry.replayed).toBe(true);
    expect(retry.eventIds).toEqual([first.eventId]);
    expect(retry.events).toEqual([{ type: first.type, data: first.data }]);
    expect(await store.readStream(`wallet-${user}`)).toHaveLength(7);
  });

  it('ignores a snapshot of another state version, and one whose event the log does not hold, and folds from zero', async () => {
    const user = await walletOf(6);
    // A snapshot that says the wallet holds 1,000,000 BTC: were it used, a withdrawal of 100 would pass.
    const rich = await database.db
      .selectFrom('snapshots')
      .select('data')
      .where('stream_id', '=', `wallet-${user}`)
      .executeTakeFirstOrThrow();
    const data = rich.data.replace(/\["BTC","\d+"/, '["BTC","1000000"');
    expect(data).not.toBe(rich.data);
    await sql`update snapshots set data = ${data}, state_version = '0.old' where stream_id = ${`wallet-${user}`}`.execute(database.db);
    await expect(coldWithdrawal(user, '100')).rejects.toBeInstanceOf(WalletError);
    await sql`update snapshots set state_version = (select state_version from snapshots where stream_id <> ${`wallet-${user}`} limit 1),
      last_event_id = ${randomUUID()} where stream_id = ${`wallet-${user}`}`.execute(database.db);
    await expect(coldWithdrawal(user, '100')).rejects.toBeInstanceOf(WalletError);
    const { read } = await coldWithdrawal(user, '5');
    expect(read).toBeGreaterThanOrEqual(6);
    expect(availableBalance(await fromZero(user), 'BTC').toFixed()).toBe('0.95');
  });

  it('keeps closed transactions beside the snapshot, not in it, and a cold command reads back those it names', async () => {
    const user = randomUUID();
    const ids = Array.from({ length: 12 }, () => randomUUID());
    const h = handler();
    for (const id of ids) await h.handle(walletDecider, user, recorded('1', 'Complete', 'BTC', id), { actor: SYSTEM_ACTOR });
    await h.flushSnapshots();
    const row = await database.db
      .selectFrom('snapshots')
      .select(['data', 'revision'])
      .where('stream_id', '=', `wallet-${user}`)
      .executeTakeFirstOrThrow();
    expect(row.revision).toBe('9');
    for (const id of ids) expect(row.data).not.toContain(id);
    const archived = await database.db
      .selectFrom('snapshot_archive')
      .select(['key', 'value'])
      .where('stream_id', '=', `wallet-${user}`)
      .orderBy('key')
      .execute();
    // Every transaction closed at or before the snapshot's revision, with its final status.
    expect(archived).toEqual(
      ids
        .slice(0, 10)
        .sort()
        .map((key) => ({ key, value: 'Complete' })),
    );
    // Cold commands on transactions closed before the snapshot decide as a fold from zero would.
    const cold = () => handler();
    const settled = await cold().handle(
      walletDecider,
      user,
      { type: 'SettleTransaction', transactionId: ids[0]!, by: { system: 'test' } },
      { actor: SYSTEM_ACTOR },
    );
    expect(settled.events).toEqual([]);
    await expect(
      cold().handle(walletDecider, user, { type: 'FailTransaction', transactionId: ids[1]!, reason: null }, { actor: SYSTEM_ACTOR }),
    ).rejects.toThrow('A Complete transaction cannot change status; record a correcting transaction instead.');
    await expect(cold().handle(walletDecider, user, recorded('1', 'Complete', 'BTC', ids[2]!), { actor: SYSTEM_ACTOR })).rejects.toThrow(
      'This transaction already exists.',
    );
    const edited = await cold().handle(
      walletDecider,
      user,
      { type: 'EditTransaction', transactionId: ids[3]!, note: 'checked' },
      { actor: SYSTEM_ACTOR },
    );
    expect(edited.events.map((e) => e.type)).toEqual(['wallet.transaction-edited']);
    await expect(
      cold().handle(walletDecider, user, { type: 'EditTransaction', transactionId: randomUUID(), note: 'x' }, { actor: SYSTEM_ACTOR }),
    ).rejects.toThrow('Transaction not found.');
  });

  it('holds the state and the keys, not the events, their metadata or their actors', async () => {
    const user = randomUUID();
    const h = handler();
    for (let i = 0; i < 5; i++) {
      await h.handle(walletDecider, user, recorded('1'), {
        actor: { id: 'staff-secretive', role: 'ADMIN' },
        extra: { reason: 'reason-not-in-snapshot' },
      });
    }
    await h.flushSnapshots();
    const row = await database.db
      .selectFrom('snapshots')
      .select('data')
      .where('stream_id', '=', `wallet-${user}`)
      .executeTakeFirstOrThrow();
    expect(row.data).not.toMatch(/staff-secretive|reason-not-in-snapshot|correlation/);
    expect(JSON.parse(row.data).state.assets).toEqual([['BTC', '5', '0', '0']]);
  });
});
