import { randomUUID } from 'node:crypto';
import { describe, it, expect } from 'vitest';
import { EventStoreDbEventStore } from './eventstoredb.js';
import type { NewEvent } from './port.js';

/** Nothing listens on port 1: every call fails as unavailable. */
const NO_SERVER = 'esdb://127.0.0.1:1?tls=false';

function anEvent(): NewEvent {
  return {
    eventId: randomUUID(),
    type: 'walletOpened',
    version: 1,
    data: { walletId: 'w-1' },
    metadata: {
      actorId: 'u-1',
      actorRole: 'customer',
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
    },
  };
}

type Outcome = { kind: 'resolved' } | { kind: 'rejected'; error: unknown } | { kind: 'pending' };

/** The rejection reason; fails if the promise resolves or is still pending after `withinMs`. */
async function rejection(promise: Promise<unknown>, withinMs: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race<Outcome>([
    promise.then(
      () => ({ kind: 'resolved' }),
      (error: unknown) => ({ kind: 'rejected', error }),
    ),
    new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'pending' }), withinMs);
    }),
  ]);
  clearTimeout(timer);
  if (outcome.kind === 'resolved') throw new Error('expected a rejection');
  if (outcome.kind === 'pending') throw new Error(`still pending after ${withinMs} ms`);
  return outcome.error;
}

describe('EventStoreDbEventStore without a server', () => {
  it('is named eventstoredb', async () => {
    const store = new EventStoreDbEventStore(NO_SERVER);
    expect(store.name).toBe('eventstoredb');
    await store.close();
  });

  it('rejects append and readAll quickly, and close lets the process go', async () => {
    const store = new EventStoreDbEventStore(NO_SERVER);
    try {
      const started = Date.now();
      const appendError = await rejection(store.append(`wallet-${randomUUID()}`, [anEvent()], { expectedRevision: 'no_stream' }), 3000);
      expect(appendError).toBeInstanceOf(Error);
      const readError = await rejection(store.readAll({ maxCount: 10 }), 3000);
      expect(readError).toBeInstanceOf(Error);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      await store.close();
    }
  });

  it('rejects readStream and headPosition rather than hanging', async () => {
    const store = new EventStoreDbEventStore(NO_SERVER);
    try {
      expect(await rejection(store.readStream(`wallet-${randomUUID()}`), 3000)).toBeInstanceOf(Error);
      expect(await rejection(store.headPosition(), 3000)).toBeInstanceOf(Error);
    } finally {
      await store.close();
    }
  });

  it('a subscription resolves a pending nextBatch with [] once closed', async () => {
    const store = new EventStoreDbEventStore(NO_SERVER);
    const subscription = store.subscribeAll();
    const pending = subscription.nextBatch(10).catch((err: unknown) => err);
    await subscription.close();
    const outcome = await pending;
    // Closing wins over the connection failure if it comes first; either way nothing hangs.
    expect(Array.isArray(outcome) ? outcome : []).toEqual([]);
    expect(await subscription.nextBatch(10)).toEqual([]);
    await store.close();
  });

  it('close closes open subscriptions', async () => {
    const store = new EventStoreDbEventStore(NO_SERVER);
    const subscription = store.subscribeAll();
    await store.close();
    expect(await subscription.nextBatch(10)).toEqual([]);
  });
});
