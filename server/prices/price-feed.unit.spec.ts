import { describe, expect, it } from 'vitest';
import { ASSET_IDS, type AssetId } from '../../ledger/assets.js';
import { HttpPriceFeed, REFERENCE_PRICES, SimulatedPriceFeed, createPriceFeed, roundPrice, type PriceMap } from './price-feed.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const START = Date.UTC(2025, 0, 15, 12, 0, 0);

function clock(start = START) {
  let time = start;
  return {
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

async function run(seed: number, minutes: number): Promise<PriceMap[]> {
  const c = clock();
  const feed = new SimulatedPriceFeed({ seed, now: c.now });
  const out: PriceMap[] = [];
  for (let i = 0; i < minutes; i++) {
    out.push(await feed.fetchPrices());
    c.advance(MINUTE);
  }
  return out;
}

describe('SimulatedPriceFeed', () => {
  it('answers all ten assets, USDT at 1 and the others near their reference', async () => {
    const prices = await new SimulatedPriceFeed({ seed: 7, now: () => START }).fetchPrices();
    expect(Object.keys(prices)).toEqual(ASSET_IDS);
    for (const id of ASSET_IDS) {
      const { price, changePercent24Hr } = prices[id]!;
      expect(price).toBeGreaterThan(REFERENCE_PRICES[id] * 0.7);
      expect(price).toBeLessThan(REFERENCE_PRICES[id] * 1.3);
      expect(Number.isFinite(changePercent24Hr)).toBe(true);
    }
    expect(prices.USDT!.price).toBeCloseTo(1, 2);
  });

  it('is deterministic for a seed and the same clock, and differs for another seed', async () => {
    const a = await run(42, 120);
    const b = await run(42, 120);
    const c = await run(43, 120);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('does not depend on how often it is asked', async () => {
    const often = clock();
    const rarely = clock();
    const feedOften = new SimulatedPriceFeed({ seed: 5, now: often.now });
    const feedRarely = new SimulatedPriceFeed({ seed: 5, now: rarely.now });
    for (let i = 0; i < 90; i++) {
      await feedOften.fetchPrices();
      often.advance(MINUTE);
    }
    rarely.advance(90 * MINUTE);
    expect(await feedRarely.fetchPrices()).toEqual(await feedOften.fetchPrices());
  });

  it('moves once per step and not within one', async () => {
    const c = clock();
    const feed = new SimulatedPriceFeed({ seed: 3, now: c.now });
    const first = await feed.fetchPrices();
    c.advance(MINUTE - 1);
    expect(await feed.fetchPrices()).toEqual(first);
    c.advance(1);
    expect(await feed.fetchPrices()).not.toEqual(first);
  });

  it('never rewinds when the clock goes backwards', async () => {
    const c = clock();
    const feed = new SimulatedPriceFeed({ seed: 3, now: c.now });
    c.advance(10 * MINUTE);
    const later = await feed.fetchPrices();
    c.advance(-5 * MINUTE);
    expect(await feed.fetchPrices()).toEqual(later);
  });

  it('reports a 24 h change equal to the ratio to its own price 24 h earlier', async () => {
    // Two simulated days, one answer a minute; from the second day on, each change can be
    // checked against the answer observed exactly 24 h earlier.
    const answers = await run(11, 2 * 24 * 60 + 1);
    const stepsPerDay = 24 * 60;
    let nonZero = 0;
    for (let i = stepsPerDay; i < answers.length; i += 7) {
      for (const id of ASSET_IDS) {
        const now = answers[i]![id]!;
        const before = answers[i - stepsPerDay]![id]!;
        expect(now.changePercent24Hr).toBeCloseTo((now.price / before.price - 1) * 100, 3);
        if (now.changePercent24Hr !== 0) nonZero += 1;
      }
    }
    expect(nonZero).toBeGreaterThan(0);
  });

  it('has a full day of history on the first call', async () => {
    const first = await new SimulatedPriceFeed({ seed: 99, now: () => START }).fetchPrices();
    const moved = ASSET_IDS.filter((id) => id !== 'USDT' && first[id]!.changePercent24Hr !== 0);
    expect(moved.length).toBeGreaterThan(5);
  });

  it('stays positive and within a sane band of the reference over 30 simulated days; USDT within 1 ± 0.01', async () => {
    for (const seed of [1, 2, 3]) {
      const c = clock();
      const feed = new SimulatedPriceFeed({ seed, now: c.now });
      const low = {} as Record<AssetId, number>;
      const high = {} as Record<AssetId, number>;
      for (let hour = 0; hour <= 30 * 24; hour++) {
        const prices = await feed.fetchPrices();
        for (const id of ASSET_IDS) {
          const { price, changePercent24Hr } = prices[id]!;
          low[id] = Math.min(low[id] ?? Infinity, price);
          high[id] = Math.max(high[id] ?? -Infinity, price);
          expect(changePercent24Hr).toBeGreaterThan(-100);
        }
        c.advance(60 * MINUTE);
      }
      for (const id of ASSET_IDS) {
        expect(low[id]).toBeGreaterThan(0);
        expect(low[id]).toBeGreaterThanOrEqual(REFERENCE_PRICES[id] / 2);
        expect(high[id]).toBeLessThanOrEqual(REFERENCE_PRICES[id] * 2);
      }
      expect(low.USDT).toBeGreaterThanOrEqual(0.99);
      expect(high.USDT).toBeLessThanOrEqual(1.01);
      // It does move.
      expect(high.BTC! / low.BTC!).toBeGreaterThan(1.02);
    }
  });

  it('agrees with a feed started at another time, at the same instant', async () => {
    const early = clock(START - 5 * DAY - 17 * MINUTE);
    const late = clock(START);
    const feedEarly = new SimulatedPriceFeed({ seed: 1, now: early.now });
    await feedEarly.fetchPrices();
    const feedLate = new SimulatedPriceFeed({ seed: 1, now: late.now });
    early.advance(START - early.now());
    expect(await feedEarly.fetchPrices()).toEqual(await feedLate.fetchPrices());
    // And any later instant: one feed asked every minute, the other only now and then.
    for (let minute = 1; minute <= 600; minute++) {
      early.advance(MINUTE);
      late.advance(MINUTE);
      const a = await feedEarly.fetchPrices();
      if (minute % 97 === 0) expect(await feedLate.fetchPrices()).toEqual(a);
    }
  });

  it('after a restart answers what the running feed would have (3 h later)', async () => {
    const c = clock();
    const running = new SimulatedPriceFeed({ now: c.now });
    await running.fetchPrices();
    c.advance(3 * 60 * MINUTE);
    const restarted = new SimulatedPriceFeed({ now: c.now });
    expect(await restarted.fetchPrices()).toEqual(await running.fetchPrices());
    // The default feed (the one the server builds) is a function of the clock alone.
    expect(await new SimulatedPriceFeed({ now: c.now }).fetchPrices()).toEqual(await running.fetchPrices());
  });

  it('moves from minute to minute and stays in its band over 30 days of minutes', async () => {
    const c = clock();
    const feed = new SimulatedPriceFeed({ seed: 1, now: c.now });
    // The documented caps: x1.6 for BTC, ETH and BNB, x1.8 for the others, USDT within 0.3%.
    const cap = (id: AssetId) => (id === 'USDT' ? 1.003 : ['BTC', 'ETH', 'BNB'].includes(id) ? 1.6 : 1.8);
    const low = {} as Record<AssetId, number>;
    const high = {} as Record<AssetId, number>;
    const moves = {} as Record<AssetId, number>;
    let previous = await feed.fetchPrices();
    const minutes = 30 * 24 * 60;
    for (let i = 1; i <= minutes; i++) {
      c.advance(MINUTE);
      const prices = await feed.fetchPrices();
      for (const id of ASSET_IDS) {
        const price = prices[id]!.price;
        low[id] = Math.min(low[id] ?? Infinity, price);
        high[id] = Math.max(high[id] ?? -Infinity, price);
        if (price !== previous[id]!.price) moves[id] = (moves[id] ?? 0) + 1;
      }
      previous = prices;
    }
    for (const id of ASSET_IDS) {
      expect(low[id]).toBeGreaterThanOrEqual(REFERENCE_PRICES[id] / cap(id));
      expect(high[id]).toBeLessThanOrEqual(REFERENCE_PRICES[id] * cap(id));
      // Every asset but the stablecoin changes at nearly every minute (USDT only shows 4 decimals).
      if (id !== 'USDT') expect(moves[id]! / minutes).toBeGreaterThan(0.9);
    }
    expect(moves.USDT).toBeGreaterThan(0);
    // Over a month the majors wander by more than a few percent, as markets do.
    expect(high.BTC! / low.BTC!).toBeGreaterThan(1.05);
    expect(high.DOGE! / low.DOGE!).toBeGreaterThan(1.1);
  });

  it('reports as the 24 h change the ratio of its price to the price a day earlier, at any instant', async () => {
    for (let k = 0; k < 200; k++) {
      const t = START + k * 7_919 * MINUTE + (k % 60) * 1_000;
      const now = await new SimulatedPriceFeed({ now: () => t }).fetchPrices();
      const dayAgo = await new SimulatedPriceFeed({ now: () => t - DAY }).fetchPrices();
      for (const id of ASSET_IDS) {
        const expected = Number(((now[id]!.price / dayAgo[id]!.price - 1) * 100).toFixed(4));
        expect(now[id]!.changePercent24Hr).toBe(expected);
      }
    }
  });

  it('works with a coarser step that divides 24 h, and refuses one that does not', async () => {
    const c = clock();
    const feed = new SimulatedPriceFeed({ seed: 1, now: c.now, stepMs: 15 * MINUTE });
    const answers: PriceMap[] = [];
    for (let i = 0; i <= 96; i++) {
      answers.push(await feed.fetchPrices());
      c.advance(15 * MINUTE);
    }
    const last = answers[96]!.ETH!;
    expect(last.changePercent24Hr).toBeCloseTo((last.price / answers[0]!.ETH!.price - 1) * 100, 3);
    expect(() => new SimulatedPriceFeed({ stepMs: 7 * MINUTE })).toThrow(/divides 24 h/);
    expect(() => new SimulatedPriceFeed({ stepMs: 0 })).toThrow(/stepMs/);
  });
});

describe('roundPrice', () => {
  it('keeps cents for large prices and more decimals for small ones', () => {
    expect(roundPrice(97_123.456789)).toBe(97_123.46);
    expect(roundPrice(6.812345)).toBe(6.8123);
    expect(roundPrice(0.3212345678)).toBe(0.321235);
  });
});

describe('createPriceFeed', () => {
  it('is simulated without a URL and HTTP with one', () => {
    expect(createPriceFeed()).toBeInstanceOf(SimulatedPriceFeed);
    expect(createPriceFeed({ url: '' })).toBeInstanceOf(SimulatedPriceFeed);
    expect(createPriceFeed({ url: 'https://prices.example/v1/prices' })).toBeInstanceOf(HttpPriceFeed);
  });

  it('refuses a URL that is not http(s)', () => {
    expect(() => createPriceFeed({ url: 'not a url' })).toThrow('PRICE_FEED_URL is not a valid URL');
    expect(() => createPriceFeed({ url: 'ftp://prices.example/' })).toThrow('PRICE_FEED_URL must be an http:// or https:// URL');
  });
});
