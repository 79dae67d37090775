import { z } from 'zod';
import { ASSETS, type AssetId } from '../../ledger/assets.js';

/**
 * USD prices are display data (the spec's client reads `{symbol: {price, changePercent24Hr}}`),
 * so they are plain numbers here; amounts of money never are.
 */
export interface AssetPrice {
  price: number;
  changePercent24Hr: number;
}

/**
 * Prices keyed by symbol. A real feed may lack some of our assets (only BTC and ETH are
 * required), so a consumer must handle a missing symbol; the simulated feed always has all ten.
 */
export type PriceMap = Partial<Record<AssetId, AssetPrice>>;

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

/**
 * How each asset moves per simulated step, on the log of price / reference (an
 * Ornstein-Uhlenbeck walk): `volatility` is the standard deviation of one step of one
 * minute, `reversion` the share of the distance to the reference closed each step, and
 * `band` a hard limit on that distance (as a log), so that no run ever drifts to absurd values.
 * Volatilities are scaled by sqrt(stepMs / 1 minute) for other step sizes.
 */
interface WalkParams {
  volatility: number;
  reversion: number;
  band: number;
}

const MAJOR: WalkParams = { volatility: 0.0008, reversion: 4e-5, band: Math.log(1.6) };
const ALT: WalkParams = { volatility: 0.0012, reversion: 4e-5, band: Math.log(1.8) };
const WALK: Readonly<Record<AssetId, WalkParams>> = {
  BTC: MAJOR,
  ETH: { ...MAJOR, volatility: 0.001 },
  // A stablecoin: tiny noise, pulled back hard, never more than 0.3% away from 1.
  USDT: { volatility: 0.00005, reversion: 0.05, band: 0.003 },
  BNB: { ...MAJOR, volatility: 0.0009 },
  SOL: { ...ALT, volatility: 0.0014 },
  XRP: ALT,
  ADA: ALT,
  DOGE: { ...ALT, volatility: 0.0016 },
  DOT: ALT,
  LTC: { ...ALT, volatility: 0.001 },
};

/** mulberry32: a small, fast, seedable 32-bit generator; returns numbers in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Standard normal draws (Box-Muller) from a uniform generator. */
function gaussian(uniform: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    let u = 0;
    while (u === 0) u = uniform();
    const v = uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

export interface SimulatedPriceFeedOptions {
  /** Same seed and same clock: same prices. */
  seed?: number;
  /** Milliseconds since the epoch; `Date.now` by default. */
  now?: () => number;
  /** One step of the walk; must divide 24 h. Default one minute. */
  stepMs?: number;
}

/**
 * The offline default: a seeded random walk per asset, one step per `stepMs` of the clock,
 * reverting toward `REFERENCE_PRICES`. At construction it generates the 24 h before "now"
 * starting from the reference prices, so the first answer already has a full day of history,
 * and each `changePercent24Hr` is `(price now / price 24 h ago - 1) x 100` over that same
 * history (from the rounded prices it answers). The clock going backwards never rewinds it.
 */
export class SimulatedPriceFeed implements PriceFeed {
  readonly name = 'simulated';
  private readonly now: () => number;
  private readonly stepMs: number;
  /** Steps in 24 h. */
  private readonly window: number;
  private readonly normal: () => number;
  private readonly params: Record<AssetId, WalkParams & { sigma: number }>;
  /** Log of price / reference, per asset, at `step`. */
  private readonly level: Record<AssetId, number>;
  /** The rounded prices of the last `window + 1` steps, per asset, as a ring indexed by step. */
  private readonly history: Record<AssetId, Float64Array>;
  private step: number;

  constructor(options: SimulatedPriceFeedOptions = {}) {
    const stepMs = options.stepMs ?? 60_000;
    if (!Number.isInteger(stepMs) || stepMs <= 0 || DAY_MS % stepMs !== 0) {
      throw new Error(`stepMs must be a positive whole number of milliseconds that divides 24 h, got ${stepMs}`);
    }
    this.stepMs = stepMs;
    this.window = DAY_MS / stepMs;
    this.now = options.now ?? Date.now;
    this.normal = gaussian(mulberry32(options.seed ?? 1));
    const scale = Math.sqrt(stepMs / 60_000);
    this.params = {} as Record<AssetId, WalkParams & { sigma: number }>;
    this.level = {} as Record<AssetId, number>;
    this.history = {} as Record<AssetId, Float64Array>;
    for (const { id } of ASSETS) {
      const p = WALK[id];
      // Longer steps revert proportionally more, but never overshoot the reference.
      this.params[id] = { ...p, reversion: Math.min(1, p.reversion * (stepMs / 60_000)), sigma: p.volatility * scale };
      this.level[id] = 0;
      this.history[id] = new Float64Array(this.window + 1);
    }

    const current = this.stepAt(this.now());
    this.step = current - this.window;
    this.record();
    this.advanceTo(current);
  }

  async fetchPrices(): Promise<PriceMap> {
    this.advanceTo(this.stepAt(this.now()));
    const prices: PriceMap = {};
    for (const { id } of ASSETS) {
      const now = this.priceAt(id, this.step);
      const dayAgo = this.priceAt(id, this.step - this.window);
      prices[id] = { price: now, changePercent24Hr: roundPercent((now / dayAgo - 1) * 100) };
    }
    return prices;
  }

  private stepAt(time: number): number {
    if (!Number.isFinite(time)) throw new Error(`The clock answered ${time}`);
    return Math.floor(time / this.stepMs);
  }

  private slot(step: number): number {
    const size = this.window + 1;
    return ((step % size) + size) % size;
  }

  private priceAt(id: AssetId, step: number): number {
    return this.history[id][this.slot(step)]!;
  }

  private record(): void {
    for (const { id } of ASSETS) {
      this.history[id][this.slot(this.step)] = roundPrice(REFERENCE_PRICES[id] * Math.exp(this.level[id]));
    }
  }

  private advanceTo(target: number): void {
    while (this.step < target) {
      for (const { id } of ASSETS) {
        const { reversion, sigma, band } = this.params[id];
        const next = this.level[id] * (1 - reversion) + sigma * this.normal();
        this.level[id] = Math.max(-band, Math.min(band, next));
      }
      this.step += 1;
      this.record();
    }
  }
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
      if (signal.aborted) throw new Error(`${source} did not answer within ${this.timeoutMs} ms`);
      if (err instanceof Error && err.message.startsWith(source)) throw err;
      throw new Error(`${source} could not be reached: ${reason(err)}`);
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
