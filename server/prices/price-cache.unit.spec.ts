import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PriceCache, type PriceSnapshot } from './price-cache.js';
import type { PriceFeed, PriceMap } from './price-feed.js';

const A: PriceMap = { BTC: { price: 97_000, changePercent24Hr: 1 }, ETH: { price: 3_400, changePercent24Hr: -1 } };
const B: PriceMap = { BTC: { price: 98_000, changePercent24Hr: 2 }, ETH: { price: 3_500, changePercent24Hr: 0.5 } };

/** A feed whose answers the test hands out one by one. */
function scriptedFeed() {
  const answers: (() => Promise<PriceMap>)[] = [];
  const feed: PriceFeed & { calls: number } = {
    name: 'scripted',
    calls: 0,
    fetchPrices: vi.fn(() => {
      feed.calls += 1;
      const next = answers.shift();
      return next ? next() : Promise.reject(new Error('no answer scripted'));
    }),
  };
  return {
    feed,
    succeed: (prices: PriceMap) => answers.push(() => Promise.resolve(prices)),
    fail: (message: string) => answers.push(() => Promise.reject(new Error(message))),
    hang: () => {
      let resolve!: (prices: PriceMap) => void;
      answers.push(() => new Promise<PriceMap>((r) => (resolve = r)));
      return (prices: PriceMap) => resolve(prices);
    },
  };
}

describe('PriceCache', () => {
  const log = { warn: vi.fn() };
  let cache: PriceCache | undefined;

  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-01-15T12:00:00.000Z'));
    log.warn.mockReset();
  });
  afterEach(async () => {
    await cache?.stop();
    cache = undefined;
    vi.useRealTimers();
  });

  it('is empty before start, and start fetches once', async () => {
    const s = scriptedFeed();
    s.succeed(A);
    cache = new PriceCache(s.feed, { log });
    expect(cache.current()).toBeNull();
    await cache.start();
    expect(s.feed.calls).toBe(1);
    expect(cache.current()).toEqual({ prices: A, updatedAt: '2025-01-15T12:00:00.000Z' });
    await cache.start();
    expect(s.feed.calls).toBe(1);
  });

  it('refreshes every refreshMs (60 s by default)', async () => {
    const s = scriptedFeed();
    s.succeed(A);
    s.succeed(B);
    cache = new PriceCache(s.feed, { log });
    await cache.start();
    await vi.advanceTimersByTimeAsync(59_999);
    expect(s.feed.calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.feed.calls).toBe(2);
    expect(cache.current()).toEqual({ prices: B, updatedAt: '2025-01-15T12:01:00.000Z' });
  });

  it('resolves start even when the first fetch fails, stays empty, and fills at the next tick', async () => {
    const s = scriptedFeed();
    s.fail('feed down');
    s.succeed(A);
    cache = new PriceCache(s.feed, { log, refreshMs: 1_000 });
    await expect(cache.start()).resolves.toBeUndefined();
    expect(cache.current()).toBeNull();
    expect(log.warn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(cache.current()?.prices).toEqual(A);
  });

  it('keeps the last prices on a failed refresh, logs a warning, notifies nobody, and retries at the next tick', async () => {
    const s = scriptedFeed();
    s.succeed(A);
    s.fail('feed down');
    s.succeed(B);
    cache = new PriceCache(s.feed, { log, refreshMs: 1_000 });
    await cache.start();
    const listener = vi.fn();
    cache.onUpdate(listener);

    await vi.advanceTimersByTimeAsync(1_000);
    expect(cache.current()).toEqual({ prices: A, updatedAt: '2025-01-15T12:00:00.000Z' });
    expect(listener).not.toHaveBeenCalled();
    expect(log.warn).toHaveBeenCalledTimes(1);
    const [obj, msg] = log.warn.mock.calls[0]!;
    expect(msg).toBe('refreshing prices failed; keeping the last prices');
    expect((obj as { err: Error }).err.message).toBe('feed down');

    await vi.advanceTimersByTimeAsync(1_000);
    expect(cache.current()).toEqual({ prices: B, updatedAt: '2025-01-15T12:00:02.000Z' });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('notifies subscribers of a successful refresh until they unsubscribe; a throwing listener harms no one', async () => {
    const s = scriptedFeed();
    s.succeed(A);
    s.succeed(B);
    s.succeed(A);
    cache = new PriceCache(s.feed, { log, refreshMs: 1_000 });
    const seen: PriceSnapshot[] = [];
    const broken = vi.fn(() => {
      throw new Error('listener bug');
    });
    cache.onUpdate(broken);
    const unsubscribe = cache.onUpdate((snapshot) => seen.push(snapshot));
    await cache.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen).toEqual([
      { prices: A, updatedAt: '2025-01-15T12:00:00.000Z' },
      { prices: B, updatedAt: '2025-01-15T12:00:01.000Z' },
    ]);
    expect(broken).toHaveBeenCalledTimes(2);
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), 'a price listener failed');
    unsubscribe();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen).toHaveLength(2);
    expect(cache.current()?.prices).toEqual(A);
  });

  it('never runs two refreshes at once: ticks and calls during a slow fetch join it', async () => {
    const s = scriptedFeed();
    s.succeed(A);
    const release = s.hang();
    s.succeed(A);
    cache = new PriceCache(s.feed, { log, refreshMs: 1_000 });
    await cache.start();
    expect(s.feed.calls).toBe(1);

    await vi.advanceTimersByTimeAsync(1_000); // starts the slow refresh
    expect(s.feed.calls).toBe(2);
    await vi.advanceTimersByTimeAsync(5_000); // five ticks while it hangs
    const joined = cache.refresh();
    expect(s.feed.calls).toBe(2);

    release(B);
    await expect(joined).resolves.toBe(true);
    expect(cache.current()?.prices).toEqual(B);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(s.feed.calls).toBe(3);
  });

  it('stop clears the timer and drops the result of a refresh still running', async () => {
    const s = scriptedFeed();
    s.succeed(A);
    const release = s.hang();
    cache = new PriceCache(s.feed, { log, refreshMs: 1_000 });
    const listener = vi.fn();
    cache.onUpdate(listener);
    await cache.start();
    expect(vi.getTimerCount()).toBe(1);

    await vi.advanceTimersByTimeAsync(1_000);
    const stopped = cache.stop();
    expect(vi.getTimerCount()).toBe(0);
    release(B);
    await stopped;
    expect(cache.current()?.prices).toEqual(A);
    expect(listener).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(10_000);
    expect(s.feed.calls).toBe(2);
    await expect(cache.refresh()).resolves.toBe(false);
    await cache.start();
    expect(s.feed.calls).toBe(2);
  });

  it('refuses a refresh interval that is not positive', () => {
    expect(() => new PriceCache(scriptedFeed().feed, { refreshMs: 0 })).toThrow(/refreshMs/);
  });
});
