import { randomUUID } from 'node:crypto';
import { describe, it, expect } from 'vitest';
import { answeredForStoredEvents, EventStoreDbEventStore, EventStoreUrlError } from './eventstoredb.js';
import { openEventStore } from '../../server/context.js';
import { ConfigError } from '../../server/config.js';
import type { Database } from '../../server/db/database.js';
import type { NewEvent } from './port.js';
import type { RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import { CHAIN_HASH_KEY, toRecorded } from './eventstoredb-mapping.js';
import { chainAppend, GENESIS } from './chain.js';
import { checkStream } from '../audit/log-seal.js';

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

describe('answeredForStoredEvents (idempotency across instances)', () => {
  const at = (commit: bigint) => ({ commit, prepare: commit });
  it('is false for a fresh write: a position, at the revision expected', () => {
    expect(answeredForStoredEvents(4n, 2, { nextExpectedRevision: 6n, position: at(100n) })).toBe(false);
    expect(answeredForStoredEvents('no_stream', 3, { nextExpectedRevision: 2n, position: at(100n) })).toBe(false);
    expect(answeredForStoredEvents('any', 1, { nextExpectedRevision: 9n, position: at(100n) })).toBe(false);
  });
  it('is true when the server answered without a position, or at another revision than a fresh write reaches', () => {
    expect(answeredForStoredEvents(4n, 2, { nextExpectedRevision: 6n })).toBe(true);
    expect(answeredForStoredEvents(4n, 2, { nextExpectedRevision: 6n, position: { commit: -1n, prepare: -1n } })).toBe(true);
    // Another instance appended the same ids at revisions 3 and 4; this one expected 4.
    expect(answeredForStoredEvents(4n, 2, { nextExpectedRevision: 4n, position: at(100n) })).toBe(true);
    expect(answeredForStoredEvents('no_stream', 1, { nextExpectedRevision: 3n, position: at(100n) })).toBe(true);
  });
});

describe('an EVENTSTORE_URL the client cannot use', () => {
  it('is refused at start with one line naming the variable and what is wrong', async () => {
    for (const [url, why] of [
      ['esdb://host:abc', /expected port number/],
      ['esdb://host:2113?tls=maybe', /expected true or false/],
      ['kurrentdb://host:2113?tls=false', /expected esdb:\/\/ or esdb\+discover:\/\//],
    ] as const) {
      expect(() => new EventStoreDbEventStore(url)).toThrow(EventStoreUrlError);
      const refusal = await openEventStore({ EVENTSTORE_URL: url }, {} as Database).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refusal).toBeInstanceOf(ConfigError);
      const lines = (refusal as Error).message.split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Invalid configuration: EVENTSTORE_URL: the EventStoreDB client cannot use it: /);
      expect(lines[0]).toMatch(why);
    }
  });
});

describe('EventStoreDB: the chain hash in the metadata', () => {
  it('reads chainHash out of the metadata into the hash, keeps the stored version and data of an upcast event, and the chain verifies', () => {
    const meta = { actorId: 'u-1', actorRole: 'USER', correlationId: 'c', causationId: null, occurredAt: '2026-01-01T00:00:00.000Z' };
    const data = { amount: '-10', fee: '1', transactionId: randomUUID() };
    const eventId = randomUUID();
    const [chained] = chainAppend('wallet-x', 0n, GENESIS, [
      { eventId, type: 'wallet.withdrawal-requested', version: 0, data, metadata: meta },
    ]);
    const stored = {
      id: eventId,
      streamId: 'wallet-x',
      revision: 0n,
      type: 'wallet.withdrawal-requested',
      data: Buffer.from(JSON.stringify(data)),
      metadata: Buffer.from(JSON.stringify({ ...meta, schemaVersion: 0, [CHAIN_HASH_KEY]: chained!.hash })),
      position: { commit: 5n, prepare: 5n },
      created: new Date(),
      isJson: true,
      contentType: 'application/json',
    } as unknown as EsdbRecordedEvent;
    const read = toRecorded(stored);
    expect(read.hash).toBe(chained!.hash);
    expect(read.metadata).toEqual(meta);
    expect(read.version).toBe(1);
    expect(read.stored).toEqual({ version: 0, data });
    expect(checkStream([read])).toMatchObject({ ok: true });
  });
});
