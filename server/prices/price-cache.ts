import type { PriceFeed, PriceMap } from './price-feed.js';

export interface PriceSnapshot {
  prices: PriceMap;
  /** When these prices were fetched, ISO 8601. */
  updatedAt: string;
}

/** The logger shape the cache needs; a Fastify or pino logger fits. */
export interface PriceCacheLog {
  warn: (obj: unknown, msg?: string) => void;
}

export interface PriceCacheOptions {
  /** Default 60 s (the spec's price refresh). */
  refreshMs?: number;
  log?: PriceCacheLog;
  now?: () => number;
}

export type PriceListener = (snapshot: PriceSnapshot) => void;

/** How far back the median of a price looks, and how many refreshes it keeps at most. */
const HISTORY_MS = 3_600_000;
const HISTORY_MAX = 720;

const consoleLog: PriceCacheLog = { warn: (obj, msg) => console.warn(msg ?? 'price cache', obj) };

/**
 * The last good prices of a feed, refreshed on a timer. A failed refresh keeps the last good
 * prices, logs a warning and is retried at the next tick; subscribers hear only of successful
 * refreshes. Refreshes never overlap: asking for one while another runs joins it.
 */
export class PriceCache {
  private readonly refreshMs: number;
  private readonly log: PriceCacheLog;
  private readonly now: () => number;
  private readonly listeners = new Set<PriceListener>();
  private snapshot: PriceSnapshot | null = null;
  /** The last hour's successful refreshes, oldest first: the band a price must stay within to value a staff action alone. */
  private readonly history: { at: number; prices: PriceMap }[] = [];
  private inFlight: Promise<boolean> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private stopped = false;

  constructor(
    readonly feed: PriceFeed,
    options: PriceCacheOptions = {},
  ) {
    const refreshMs = options.refreshMs ?? 60_000;
    if (!Number.isFinite(refreshMs) || refreshMs <= 0) throw new Error(`refreshMs must be above 0, got ${refreshMs}`);
    this.refreshMs = refreshMs;
    this.log = options.log ?? consoleLog;
    this.now = options.now ?? Date.now;
  }

  /**
   * Fetches once, then every `refreshMs`. Resolves when the first fetch has settled and never
   * rejects: if that fetch fails the cache stays empty (the route answers 503) until a tick succeeds.
   */
  async start(): Promise<void> {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref?.();
    await this.refresh();
  }

  /** The last good prices, or null before any fetch has succeeded. */
  current(): PriceSnapshot | null {
    return this.snapshot;
  }

  /** Seconds since the current prices were fetched, or null before any fetch has succeeded. */
  ageSeconds(): number | null {
    return this.snapshot ? (this.now() - Date.parse(this.snapshot.updatedAt)) / 1000 : null;
  }

  /** The median of the asset's prices fetched in the last `windowMs` (the current one included), or null without any. */
  medianPrice(asset: keyof PriceMap, windowMs = HISTORY_MS): number | null {
    const since = this.now() - windowMs;
    const values = this.history
      .filter((h) => h.at >= since)
      .map((h) => h.prices[asset]?.price)
      .filter((p): p is number => typeof p === 'number' && Number.isFinite(p))
      .sort((a, b) => a - b);
    if (values.length === 0) return null;
    const mid = Math.floor(values.length / 2);
    return values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
  }

  /** Hears of every successful refresh; returns the unsubscribe function. */
  onUpdate(listener: PriceListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Fetches now (or joins the refresh already running); true when new prices were stored. */
  refresh(): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    this.inFlight ??= this.fetchAndStore().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** Clears the timer and waits for a refresh still running; its result is then dropped. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.inFlight?.catch(() => {});
  }

  private async fetchAndStore(): Promise<boolean> {
    let prices: PriceMap;
    try {
      prices = await this.feed.fetchPrices();
    } catch (err) {
      this.warn(
        { err, feed: this.feed.name, lastUpdatedAt: this.snapshot?.updatedAt ?? null },
        'refreshing prices failed; keeping the last prices',
      );
      return false;
    }
    if (this.stopped) return false;
    const at = this.now();
    const snapshot: PriceSnapshot = { prices, updatedAt: new Date(at).toISOString() };
    this.snapshot = snapshot;
    this.history.push({ at, prices });
    while (this.history.length > 0 && this.history[0]!.at < at - HISTORY_MS) this.history.shift();
    if (this.history.length > HISTORY_MAX) this.history.splice(0, this.history.length - HISTORY_MAX);
    for (const listener of [...this.listeners]) {
      try {
        listener(snapshot);
      } catch (err) {
        this.warn({ err }, 'a price listener failed');
      }
    }
    return true;
  }

  private warn(obj: unknown, msg: string): void {
    try {
      this.log.warn(obj, msg);
    } catch {
      // A broken logger must not stop the refreshes.
    }
  }
}
