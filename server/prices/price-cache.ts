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
    const snapshot: PriceSnapshot = { prices, updatedAt: new Date(this.now()).toISOString() };
    this.snapshot = snapshot;
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
