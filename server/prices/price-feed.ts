import { z } from 'zod';
import { ASSETS, type AssetId } from '../../ledger/assets.js';
import type { AssetPrice, PriceMap } from '../../ledger/contract/prices.js';

/**
 * Prices as the prices contract gives them (plain USD numbers: display data). A real feed may
 * lack some of our assets, so a consumer must handle a missing symbol; the simulated feed always
 * has all ten.
 */
export type { AssetPrice, PriceMap };

/** The price-feed port. */
export interface PriceFeed {
  readonly name: string;
  fetchPrices(): Promise<PriceMap>;
}

/** Symbols without which the overview cannot work (spec: 'Failed to load market data.' when they lack). */
export const REQUIRED_SYMBOLS = ['BTC', 'ETH'] as const satisfies readonly AssetId[];

/** Realistic USD reference prices: where the simulated walk starts and what it reverts to. */
export const REFERENCE_PRICES: Readonly<Record<AssetId, number>> = Object.freeze({
  BTC: 97_000,
  ETH: 3_400,
  USDT: 1,
  BNB: 650,
  SOL: 180,
  XRP: 2.3,
  ADA: 0.85,
  DOGE: 0.32,
  DOT: 6.8,
  LTC: 105,
});

/** Decimals shown for a USD price: cents for large prices, more for small ones. */
export function roundPrice(price: number): number {
  const decimals = price >= 100 ? 2 : price >= 1 ? 4 : 6;
  return Number(price.toFixed(decimals));
}

const roundPercent = (value: number) => Number(value.toFixed(4));

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * How each asset moves, on the log of price / reference: `volatility` sets the size of moves
 * (a day moves about `volatility x sqrt(1440)`, as a random walk of that one-minute volatility
 * would), `octaves` how many time scales, doubling from one minute, the movement spans (16: the
 * slowest has knots about 23 days apart, so the price wanders for weeks but keeps coming back;
 * fewer: pulled back sooner), and `band` a hard limit on the distance to the reference (as a
 * log), approached smoothly.
 */
interface MotionParams {
  volatility: number;
  octaves: number;
  band: number;
}

const MAJOR: MotionParams = { volatility: 0.0008, octaves: 16, band: Math.log(1.6) };
const ALT: MotionParams = { volatility: 0.0012, octaves: 16, band: Math.log(1.8) };
const MOTION: Readonly<Record<AssetId, MotionParams>> = {
  BTC: MAJOR,
  ETH: { ...MAJOR, volatility: 0.001 },
  // A stablecoin: tiny noise that never lasts beyond about half an hour, never more than 0.3% away from 1.
  USDT: { volatility: 0.00005, octaves: 5, band: 0.003 },
  BNB: { ...MAJOR, volatility: 0.0009 },
  SOL: { ...ALT, volatility: 0.0014 },
  XRP: ALT,
  ADA: ALT,
  DOGE: { ...ALT, volatility: 0.0016 },
  DOT: ALT,
  LTC: { ...ALT, volatility: 0.001 },
};

/**
 * Amplitude of the one-minute octave per unit of `volatility`: with octave `k` (period 2^k
 * minutes) weighted sqrt(2^k), the sum moves like a random walk over any lag shorter than its
 * longest period; this factor makes its one-day moves about `volatility x sqrt(1440)`.
 */
const OCTAVE_SCALE = 0.81;

/** A 32-bit integer mix with good avalanche (Wellons' lowbias32). */
function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A pseudo-random 32-bit value of four 32-bit keys. */
function hash4(a: number, b: number, c: number, d: number): number {
  let h = mix32((a ^ 0x9e3779b9) >>> 0);
  h = mix32((h ^ b) >>> 0);
  h = mix32((h + 0x85ebca6b) ^ c);
  return mix32((h + 0xc2b2ae35) ^ d);
}

/** A stable key of a symbol (independent of the order of ASSETS). */
function symbolKey(symbol: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < symbol.length; i++) h = Math.imul(h ^ symbol.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

interface Octave {
  periodMin: number;
  amplitude: number;
  /** Shifts this octave's knots (whole minutes), so that knots of all octaves never line up. */
  offsetMin: number;
  key: number;
}

export interface SimulatedPriceFeedOptions {
  /** Same seed: same prices at the same instant, in any process, whenever it started. */
  seed?: number;
  /** Milliseconds since the epoch; `Date.now` by default. */
  now?: () => number;
  /** Prices hold for one step of the clock; must divide 24 h. Default one minute. */
  stepMs?: number;
}

/**
 * The offline default. Each asset's price is a pure function of the seed and the wall clock
 * (taken at the start of its `stepMs` step), so every instance and every restart shows the same
 * price at the same instant, with a full day of history from the first answer. The log of
 * price / reference is deterministic value noise: pseudo-random values hashed from (seed, asset,
 * octave, knot) at knots every 1, 2, 4, ... minutes, smoothly interpolated and summed with
 * weights growing as the square root of the period (so it wanders like a random walk up to
 * weeks, and returns), then squashed into the asset's band. `changePercent24Hr` is
 * `(price now / price 24 h earlier - 1) x 100` from the rounded prices, both from the same
 * function. The clock going backwards never rewinds an instance's answers.
 */
export class SimulatedPriceFeed implements PriceFeed {
  readonly name = 'simulated';
  private readonly now: () => number;
  private readonly stepMs: number;
  /** Steps in 24 h. */
  private readonly window: number;
  private readonly motion: Record<AssetId, { band: number; octaves: Octave[] }>;
  /** The latest step answered, so a clock going backwards holds the prices instead of rewinding them. */
  private latestStep = -Infinity;

  constructor(options: SimulatedPriceFeedOptions = {}) {
    const stepMs = options.stepMs ?? MINUTE_MS;
    if (!Number.isInteger(stepMs) || stepMs <= 0 || DAY_MS % stepMs !== 0) {
      throw new Error(`stepMs must be a positive whole number of milliseconds that divides 24 h, got ${stepMs}`);
    }
    this.stepMs = stepMs;
    this.window = DAY_MS / stepMs;
    this.now = options.now ?? Date.now;
    const seed = (options.seed ?? 1) >>> 0;
    this.motion = {} as Record<AssetId, { band: number; octaves: Octave[] }>;
    for (const { id } of ASSETS) {
      const { volatility, octaves, band } = MOTION[id];
      const asset = symbolKey(id);
      const list: Octave[] = [];
      for (let k = 0; k < octaves; k++) {
        const periodMin = 2 ** k;
        list.push({
          periodMin,
          amplitude: volatility * OCTAVE_SCALE * Math.sqrt(periodMin),
          offsetMin: hash4(seed, asset, k, 0xffffffff) % periodMin,
          key: hash4(seed, asset, k, 0x5eed),
        });
      }
      this.motion[id] = { band, octaves: list };
    }
  }

  async fetchPrices(): Promise<PriceMap> {
    const time = this.now();
    if (!Number.isFinite(time)) throw new Error(`The clock answered ${time}`);
    this.latestStep = Math.max(this.latestStep, Math.floor(time / this.stepMs));
    const step = this.latestStep;
    const prices: PriceMap = {};
    for (const { id } of ASSETS) {
      const now = this.priceAt(id, step);
      const dayAgo = this.priceAt(id, step - this.window);
      prices[id] = { price: now, changePercent24Hr: roundPercent((now / dayAgo - 1) * 100) };
    }
    return prices;
  }

  /** The rounded price of an asset at the start of a step. */
  private priceAt(id: AssetId, step: number): number {
    const { band, octaves } = this.motion[id];
    const minute = (step * this.stepMs) / MINUTE_MS;
    let sum = 0;
    for (const { periodMin, amplitude, offsetMin, key } of octaves) {
      const u = (minute + offsetMin) / periodMin;
      const knot = Math.floor(u);
      const f = u - knot;
      const fade = f * f * (3 - 2 * f);
      const a = knotValue(key, knot);
      const b = knotValue(key, knot + 1);
      sum += amplitude * (a + (b - a) * fade);
    }
    return roundPrice(REFERENCE_PRICES[id] * Math.exp(band * Math.tanh(sum / band)));
  }
}

/** A pseudo-random value in [-1, 1) for a knot of an octave (knots are whole numbers; any sign). */
function knotValue(key: number, knot: number): number {
  // Knots stay within +-2^53; split into two 32-bit halves so distant knots never collide.
  const low = knot >>> 0;
  const high = Math.floor(knot / 4_294_967_296) >>> 0;
  return hash4(key, low, high, 0x2545f491) / 2_147_483_648 - 1;
}

/** A number, or a string holding one (many market APIs send decimals as strings). */
const NUMERIC_STRING = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const NumberLike = z.unknown().transform((value, ctx) => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && NUMERIC_STRING.test(value.trim()) ? Number(value) : NaN;
  if (Number.isFinite(n)) return n;
  ctx.addIssue({ code: 'custom', message: 'expected a number or a numeric string' });
  return z.NEVER;
});

const EntrySchema = z.object({
  price: NumberLike.pipe(z.number().positive('expected a price above 0')),
  changePercent24Hr: NumberLike.pipe(z.number().min(-100, 'expected a change of at least -100%')),
});

const AnswerSchema = z.record(z.string(), z.unknown(), 'expected an object keyed by symbol');

export interface HttpPriceFeedOptions {
  /** An http(s) URL answering `{ SYMBOL: { price, changePercent24Hr }, ... }`. */
  url: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/**
 * A public market-data API answering `{symbol: {price, changePercent24Hr}}`. Only our ten
 * assets are kept (others are ignored unchecked); an entry for one of ours that is malformed,
 * or an answer without BTC or ETH, is refused. Every failure is an `Error` whose message says
 * what went wrong, naming the host but never the full URL (which may carry a key).
 */
export class HttpPriceFeed implements PriceFeed {
  readonly name = 'http';
  private readonly url: URL;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: HttpPriceFeedOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new Error('PRICE_FEED_URL is not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('PRICE_FEED_URL must be an http:// or https:// URL');
    const timeoutMs = options.timeoutMs ?? 5_000;
    if (!(timeoutMs > 0)) throw new Error(`timeoutMs must be above 0, got ${timeoutMs}`);
    this.url = url;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = timeoutMs;
  }

  async fetchPrices(): Promise<PriceMap> {
    const source = `Price feed ${this.url.host}`;
    const signal = AbortSignal.timeout(this.timeoutMs);
    let body: unknown;
    try {
      const response = await this.fetch(this.url, { method: 'GET', headers: { accept: 'application/json' }, signal });
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new Error(`${source} answered HTTP ${response.status}`);
      }
      const text = await response.text();
      try {
        body = JSON.parse(text);
      } catch {
        throw new Error(`${source} answered something that is not JSON`);
      }
    } catch (err) {
      if (signal.aborted) throw new Error(`${source} did not answer within ${this.timeoutMs} ms`, { cause: err });
      if (err instanceof Error && err.message.startsWith(source)) throw err;
      throw new Error(`${source} could not be reached: ${reason(err)}`, { cause: err });
    }
    return parseAnswer(body, source);
  }
}

function reason(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message ? `${err.message} (${cause.message})` : err.message;
}

function parseAnswer(body: unknown, source: string): PriceMap {
  const answer = AnswerSchema.safeParse(body);
  if (!answer.success) throw new Error(`${source} answered a malformed body: expected an object keyed by symbol`);
  const prices: PriceMap = {};
  for (const { id } of ASSETS) {
    if (!Object.hasOwn(answer.data, id)) continue;
    const entry = EntrySchema.safeParse(answer.data[id]);
    if (!entry.success) {
      const issue = entry.error.issues[0];
      const where = [id, ...(issue?.path ?? [])].join('.');
      throw new Error(`${source} answered a malformed body: ${where}: ${issue?.message ?? 'invalid'}`);
    }
    prices[id] = entry.data;
  }
  const missing = REQUIRED_SYMBOLS.filter((id) => !prices[id]);
  if (missing.length > 0) throw new Error(`${source} answered without ${missing.join(' and ')}`);
  return prices;
}

/** `PRICE_FEED_URL` set: the real API; otherwise the simulated feed. */
export function createPriceFeed(options: { url?: string; seed?: number; fetch?: typeof fetch; timeoutMs?: number } = {}): PriceFeed {
  if (options.url) return new HttpPriceFeed({ url: options.url, fetch: options.fetch, timeoutMs: options.timeoutMs });
  return new SimulatedPriceFeed({ seed: options.seed });
}
