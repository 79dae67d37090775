import { describe, expect, it } from 'vitest';
import type { EventStore, Position, RecordedEvent, Subscription } from '../../ledger/event-store/port.js';
import type { Projector } from '../../projections/registry.js';
import { LiveFeed } from './live-feed.js';

/** A log the test writes to in batches, and a projector that records what it was asked to wait for. */
function fakes() {
  const queued: RecordedEvent[][] = [];
  let wake: (() => void) | null = null;
  let closed = false;
  let next = 1n;
  const subscription = {
    async nextBatch(): Promise<RecordedEvent[]> {
      while (queued.length === 0 && !closed) await new Promise<void>((r) => (wake = r));
      return closed ? [] : queued.shift()!;
    },
    async close() {
      closed = true;
      wake?.();
    },
  } as unknown as Subscription;
  const store = { headPosition: async () => null, subscribeAll: () => subscription } as unknown as EventStore;
  const waitedFor: Position[] = [];
  const projector = { waitFor: async (p: Position) => (waitedFor.push(p), true) } as unknown as Projector;
  const append = (...events: [streamId: string, type: string][]) => {
    queued.push(
      events.map(([streamId, type]) => ({ streamId, type, position: { commit: next, prepare: next++ } }) as unknown as RecordedEvent),
    );
    wake?.();
  };
  return { store, projector, waitedFor, append };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('LiveFeed', () => {
  it('waits once per batch for the read tables, only when some handler wants the batch, and hands each its own events', async () => {
    const { store, projector, waitedFor, append } = fakes();
    const feed = new LiveFeed(store, projector, 1000);
    const wallets: string[][] = [];
    const claims: string[][] = [];
    feed.register({ wants: (e) => e.streamId.startsWith('wallet-'), handle: (events) => void wallets.push(events.map((e) => e.streamId)) });
    feed.register({ wants: (e) => e.type === 'user.claimed', handle: (events) => void claims.push(events.map((e) => e.streamId)) });
    await feed.start();

    append(['ticket-1', 'ticket.opened']);
    await settle();
    expect(waitedFor).toEqual([]);

    append(['wallet-a', 'wallet.deposit-requested'], ['user-b', 'user.claimed'], ['wallet-c', 'wallet.transaction-settled']);
    await settle();
    expect(waitedFor).toEqual([{ commit: 4n, prepare: 4n }]);
    expect(wallets).toEqual([['wallet-a', 'wallet-c']]);
    expect(claims).toEqual([['user-b']]);
    await feed.stop();
  });

  it('a slow or failing handler neither holds back nor stops the others, and keeps its own order', async () => {
    const { store, projector, append } = fakes();
    const feed = new LiveFeed(store, projector, 1000);
    const fast: string[] = [];
    const slow: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    feed.register({ wants: () => true, handle: (events) => void fast.push(events[0]!.streamId) });
    feed.register({
      wants: () => true,
      async handle(events) {
        if (events[0]!.streamId === 'x-1') await gate;
        slow.push(events[0]!.streamId);
      },
    });
    feed.register({
      wants: () => true,
      handle: () => {
        throw new Error('broken');
      },
    });
    await feed.start();

    append(['x-1', 'a']);
    await settle();
    append(['x-2', 'a']);
    await settle();
    expect(fast).toEqual(['x-1', 'x-2']);
    expect(slow).toEqual([]);
    release();
    await settle();
    expect(slow).toEqual(['x-1', 'x-2']);
    await feed.stop();
  });

  it('a removed handler gets nothing more', async () => {
    const { store, projector, append } = fakes();
    const feed = new LiveFeed(store, projector, 1000);
    const seen: string[] = [];
    const remove = feed.register({ wants: () => true, handle: (events) => void seen.push(events[0]!.streamId) });
    await feed.start();
    append(['x-1', 'a']);
    await settle();
    await remove();
    append(['x-2', 'a']);
    await settle();
    expect(seen).toEqual(['x-1']);
    await feed.stop();
  });

  it('a subscription that fails is opened again, after a pause, from the last event handed on', async () => {
    const position = (n: number) => ({ commit: BigInt(n), prepare: BigInt(n) });
    const event = (n: number) => ({ streamId: `x-${n}`, type: 'a', position: position(n) }) as unknown as RecordedEvent;
    const subscribedAfter: (Position | undefined)[] = [];
    const opened: number[] = [];
    // Each subscription hands on one event, then fails as a dropped connection does; the fourth stays open.
    const store = {
      headPosition: async () => position(10),
      subscribeAll({ after }: { after?: Position }) {
        subscribedAfter.push(after);
        opened.push(Date.now());
        const n = subscribedAfter.length;
        let handed = false;
        let closed = false;
        return {
          async nextBatch() {
            if (!handed) return ((handed = true), [event(10 + n)]);
            if (n < 4) throw new Error('the subscription to $all ended unexpectedly');
            while (!closed) await new Promise((r) => setTimeout(r, 10));
            return [];
          },
          async close() {
            closed = true;
          },
        } as unknown as Subscription;
      },
    } as unknown as EventStore;
    const projector = { waitFor: async () => true } as unknown as Projector;
    const feed = new LiveFeed(store, projector, 1000);
    const seen: string[] = [];
    feed.register({ wants: () => true, handle: (events) => void seen.push(...events.map((e) => e.streamId)) });
    await feed.start();
    const deadline = Date.now() + 5000;
    while (seen.length < 4 && Date.now() < deadline) await settle();
    await feed.stop();
    expect(seen).toEqual(['x-11', 'x-12', 'x-13', 'x-14']);
    expect(subscribedAfter).toEqual([position(10), position(11), position(12), position(13)]);
    // Each subscription handed on an event before it failed, so each pause is a first one.
    const pauses = opened.slice(1).map((t, i) => t - opened[i]!);
    expect(Math.min(...pauses)).toBeGreaterThanOrEqual(90);
    expect(Math.max(...pauses)).toBeLessThan(1000);
  });
});
