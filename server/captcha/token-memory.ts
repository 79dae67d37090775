import type { Redis } from 'ioredis';

export type TokenState = 'verified' | 'spent';

/**
 * Where a provider's checked and spent tokens are remembered for a few minutes: each
 * process's memory, or Redis when REDIS_URL is set, so that a token checked by one instance
 * can be spent on another and a spent one is refused by every instance.
 */
export interface TokenMemory {
  recall(key: string): Promise<TokenState | undefined>;
  /** Remembers the token as verified unless something is remembered already. */
  markVerified(key: string, ttlMs: number): Promise<void>;
  /** Remembers the token as spent; answers what was remembered before (atomic: one spend wins). */
  spend(key: string, ttlMs: number): Promise<TokenState | undefined>;
}

const REMEMBERED_MAX = 10_000;

/** One process's memory, bounded: expired entries go first, then the oldest. */
export class LocalTokenMemory implements TokenMemory {
  private readonly remembered = new Map<string, { state: TokenState; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async recall(key: string): Promise<TokenState | undefined> {
    return this.get(key);
  }

  async markVerified(key: string, ttlMs: number): Promise<void> {
    if (!this.get(key)) this.set(key, 'verified', ttlMs);
  }

  async spend(key: string, ttlMs: number): Promise<TokenState | undefined> {
    const before = this.get(key);
    this.set(key, 'spent', ttlMs);
    return before;
  }

  private get(key: string): TokenState | undefined {
    const entry = this.remembered.get(key);
    if (entry && entry.until <= this.now()) {
      this.remembered.delete(key);
      return undefined;
    }
    return entry?.state;
  }

  private set(key: string, state: TokenState, ttlMs: number): void {
    const now = this.now();
    this.remembered.delete(key);
    this.remembered.set(key, { state, until: now + ttlMs });
    if (this.remembered.size > REMEMBERED_MAX) {
      for (const [k, v] of this.remembered) {
        if (v.until <= now) this.remembered.delete(k);
      }
      // Still full: forget the oldest (a Map keeps insertion order).
      for (const k of this.remembered.keys()) {
        if (this.remembered.size <= REMEMBERED_MAX) break;
        this.remembered.delete(k);
      }
    }
  }
}

/** Shared by every instance on one Redis; keys expire with the tokens. */
export class RedisTokenMemory implements TokenMemory {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async recall(key: string): Promise<TokenState | undefined> {
    return state(await this.redis.get(this.prefix + key));
  }

  async markVerified(key: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + key, 'verified', 'PX', ttlMs, 'NX');
  }

  async spend(key: string, ttlMs: number): Promise<TokenState | undefined> {
    // SET … GET (Redis 6.2+) writes and answers the old value in one step.
    return state(await this.redis.set(this.prefix + key, 'spent', 'PX', ttlMs, 'GET'));
  }
}

const state = (value: string | null): TokenState | undefined => (value === 'verified' || value === 'spent' ? value : undefined);
