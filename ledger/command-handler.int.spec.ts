import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../tests/support/test-database.js';
import { PostgresEventStore } from './event-store/postgres.js';
import { CommandHandler, IDEMPOTENCY_KEY_REUSED, IdempotencyKeyReusedError, SYSTEM_ACTOR } from './command-handler.js';
import { walletDecider } from './wallet/decider.js';
import { deposit, recorded, withdrawal } from './wallet/wallet.arbitraries.js';
import { availableBalance, fold, WalletError } from './wallet/wallet.js';
import type { WalletEvent } from './wallet/events.js';
import { money } from './money.js';

describe('command handler', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 20 });
    store = new PostgresEventStore(database.db);
  });
  afterAll(async () => {
    await database.close();
  });
  const walletEvents = async (user: string) =>
    (await store.readStream(`wallet-${user}`)).map((e) => ({ type: e.type, data: e.data }) as WalletEvent);

  it('records who did it, with correlation and causation, on every event', async () => {
    const user = randomUUID();
    await new CommandHandler(store).handle(walletDecider, user, recorded('1'), {
      actor: { id: 'staff-7', role: 'WORKER' },
      correlationId: 'c0rr',
      causationId: 'cause-1',
      extra: { reason: 'opening balance' },
    });
    const [event] = await store.readStream(`wallet-${user}`);
    expect(event!.metadata).toMatchObject({
      actorId: 'staff-7',
      actorRole: 'WORKER',
      correlationId: 'c0rr',
      causationId: 'cause-1',
      reason: 'opening balance',
    });
    expect(Date.parse(event!.metadata.occurredAt)).not.toBeNaN();
    expect(event!.version).toBe(1);
  });

  it('gives events without an idempotency key time-ordered ids (UUIDv7), in the order they were written', async () => {
    const user = randomUUID();
    const handler = new CommandHandler(store);
    for (const amount of ['1', '2', '3']) await handler.handle(walletDecider, user, recorded(amount), { actor: SYSTEM_ACTOR });
    const ids = (await store.readStream(`wallet-${user}`)).map((e) => e.eventId);
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Their first 48 bits are the millisecond they were made: the index on them grows at its end.
    expect([...ids].sort()).toEqual(ids);
    const made = parseInt(ids[0]!.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(made - Date.now())).toBeLessThan(60_000);
  });

  it('makes a retried command with the same idempotency key a no-op with the same answer, also when sent at once', async () => {
    const user = randomUUID();
    const handler = new CommandHandler(store);
    await handler.handle(walletDecider, user, recorded('10'), { actor: SYSTEM_ACTOR });
    const command = withdrawal('1');
    const first = await handler.handle(walletDecider, user, command, { actor: SYSTEM_ACTOR, idempotencyKey: 'key-1' });
    const second = await handler.handle(walletDecider, user, command, { actor: SYSTEM_ACTOR, idempotencyKey: 'key-1' });
    expect(second.replayed).toBe(true);
    expect(second.eventIds).toEqual(first.eventIds);
    expect(second.events).toEqual(first.events);
    // A fresh handler (another process, or after a restart) knows the key from the stream.
    const third = await new CommandHandler(store).handle(walletDecider, user, command, { actor: SYSTEM_ACTOR, idempotencyKey: 'key-1' });
    expect([third.replayed, third.eventIds]).toEqual([true, first.eventIds]);

    const concurrent = withdrawal('2');
    const handlers = [new CommandHandler(store), new CommandHandler(store), handler];
    const results = await Promise.all(
      handlers.flatMap((h) =>
        [h, h].map((x) => x.handle(walletDecider, user, concurrent, { actor: SYSTEM_ACTOR, idempotencyKey: 'key-2' })),
      ),
    );
    expect(new Set(results.map((r) => r.eventIds.join()))).toEqual(new Set([results[0]!.eventIds.join()]));
    const events = await walletEvents(user);
    expect(events.filter((e) => e.type === 'wallet.withdrawal-requested')).toHaveLength(2); // key-1 once, key-2 once
  });

  it('refuses a key reused by a different request on the stream, also after a restart and from another process', async () => {
    const user = randomUUID();
    const handler = new CommandHandler(store);
    const stale = new CommandHandler(store);
    await handler.handle(walletDecider, user, recorded('10'), { actor: SYSTEM_ACTOR });
    await stale.handle(walletDecider, user, recorded('1'), { actor: SYSTEM_ACTOR });
    const keyed = (payload: unknown) => ({ actor: SYSTEM_ACTOR, idempotencyKey: 'key-1', idempotencyPayload: payload });
    const first = await handler.handle(walletDecider, user, deposit('1'), keyed({ amount: '1' }));
    const log = (await store.readStream(`wallet-${user}`)).map((e) => e.eventId);
    // In the process that recorded it, in a fresh one (a restart reads the key from the log),
    // and in one whose cached state predates it (its append meets the ids the key derives).
    for (const h of [handler, new CommandHandler(store), stale]) {
      await expect(h.handle(walletDecider, user, withdrawal('1'), keyed({ amount: '1' }))).rejects.toBeInstanceOf(
        IdempotencyKeyReusedError,
      );
      await expect(h.handle(walletDecider, user, deposit('2'), keyed({ amount: '2' }))).rejects.toThrow(IDEMPOTENCY_KEY_REUSED);
      await expect(h.handle(walletDecider, user, withdrawal('1'), { actor: SYSTEM_ACTOR, idempotencyKey: 'key-1' })).rejects.toBeInstanceOf(
        IdempotencyKeyReusedError,
      );
    }
    expect((await store.readStream(`wallet-${user}`)).map((e) => e.eventId)).toEqual(log);
    // The same request with the key answers as the first did (new ids and time in the command notwithstanding).
    for (const h of [handler, new CommandHandler(store), stale]) {
      const again = await h.handle(walletDecider, user, deposit('1'), keyed({ amount: '1' }));
      expect([again.replayed, again.eventIds, again.events]).toEqual([true, first.eventIds, first.events]);
    }
    expect((await store.readStream(`wallet-${user}`)).map((e) => e.eventId)).toEqual(log);
  });

  it('refuses a reused key from a process that has not read the stream since, whatever the number of events', async () => {
    const user = randomUUID();
    const here = new CommandHandler(store);
    const elsewhere = new CommandHandler(store);
    await here.handle(walletDecider, user, recorded('10'), { actor: SYSTEM_ACTOR });
    // Another process records a one-event command with the key; this one's cache predates it.
    await elsewhere.handle(walletDecider, user, withdrawal('1'), { actor: SYSTEM_ACTOR, idempotencyKey: 'key-x' });
    const log = (await store.readStream(`wallet-${user}`)).map((e) => e.eventId);
    const swap = {
      type: 'RequestSwap' as const,
      requestId: randomUUID(),
      fromTransactionId: randomUUID(),
      toTransactionId: randomUUID(),
      fromAssetId: 'BTC' as const,
      toAssetId: 'ETH' as const,
      fromAmount: money('1'),
      fromPrice: money('50000'),
      toPrice: money('2500'),
      sentAt: new Date().toISOString(),
    };
    await expect(here.handle(walletDecider, user, swap, { actor: SYSTEM_ACTOR, idempotencyKey: 'key-x' })).rejects.toBeInstanceOf(
      IdempotencyKeyReusedError,
    );
    expect((await store.readStream(`wallet-${user}`)).map((e) => e.eventId)).toEqual(log);
  });

  it('retries on a conflict with another writer and still enforces the balance', async () => {
    const user = randomUUID();
    await new CommandHandler(store).handle(walletDecider, user, recorded('10.1'), { actor: SYSTEM_ACTOR });
    // Four handlers (as four processes would) race 30 withdrawals of 1 (1.01 with fee): exactly 10 fit.
    const handlers = Array.from({ length: 4 }, () => new CommandHandler(store, { maxRetries: 100 }));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => handlers[i % 4]!.handle(walletDecider, user, withdrawal('1'), { actor: SYSTEM_ACTOR })),
    );
    const ok = outcomes.filter((o) => o.status === 'fulfilled').length;
    const refused = outcomes.filter(
      (o) => o.status === 'rejected' && o.reason instanceof WalletError && o.reason.code === 'insufficient_balance',
    ).length;
    expect([ok, refused]).toEqual([10, 20]);
    expect(availableBalance(fold(await walletEvents(user)), 'BTC').toFixed()).toBe('0');
  });

  it('answers from its cached state, but re-reads the stream before refusing and when another process wrote', async () => {
    const user = randomUUID();
    const here = new CommandHandler(store);
    const elsewhere = new CommandHandler(store);
    await here.handle(walletDecider, user, recorded('1'), { actor: SYSTEM_ACTOR });
    // Another process credits the wallet; this one's cached state still says 1.
    await elsewhere.handle(walletDecider, user, recorded('5'), { actor: SYSTEM_ACTOR });
    // 3 (+ fee) does not fit in the cached 1: the refusal is checked against the log first.
    const accepted = await here.handle(walletDecider, user, withdrawal('3'), { actor: SYSTEM_ACTOR });
    expect(accepted.events.map((e) => e.type)).toEqual(['wallet.withdrawal-requested']);
    // And an append on a stale cache that would fit is caught by the expected revision.
    await elsewhere.handle(walletDecider, user, withdrawal('2.5'), { actor: SYSTEM_ACTOR });
    await expect(here.handle(walletDecider, user, withdrawal('0.5'), { actor: SYSTEM_ACTOR })).rejects.toBeInstanceOf(WalletError);
    expect(availableBalance(fold(await walletEvents(user)), 'BTC').toString()).toBe('0.445');
  });

  it('refuses to append an event its schema rejects', async () => {
    const bad = {
      ...walletDecider,
      decide: () => [
        { type: 'wallet.transaction-settled' as const, data: { transactionId: 'nope', assetId: 'BTC' as const, amount: '1' } },
      ],
    };
    await expect(new CommandHandler(store).handle(bad, randomUUID(), recorded('1'), { actor: SYSTEM_ACTOR })).rejects.toThrow();
  });
});
