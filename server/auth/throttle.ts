import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Counters with expiry: the state behind sign-in throttling, the captcha's cost and upload
 * rates. `increment` starts a key's window (count 1, ending `ttlMs` later) when the key is
 * new or its window has ended, and otherwise adds one; `get` answers 0 for an ended window.
 * The shape of INCR with PEXPIRE on a new key, so that a shared key-value store can take it.
 */
export interface ThrottleStore {
  get(key: string): Promise<number>;
  increment(key: string, ttlMs: number): Promise<number>;
  reset(key: string): Promise<void>;
}

/** Expired rows are removed at most this often (on an increment). */
const CLEANUP_INTERVAL_MS = 60_000;

/** The counters in the database (`auth_throttle`): a restart or a second instance keeps them. */
export class DatabaseThrottleStore implements ThrottleStore {
  private lastCleanup = 0;

  constructor(private readonly db: Kysely<DB>) {}

  async get(key: string): Promise<number> {
    const row = await this.db
      .selectFrom('auth_throttle')
      .select('count')
      .where('key', '=', key)
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
    return row?.count ?? 0;
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    await this.removeExpired();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + ttlMs);
    // One statement: concurrent increments of a key each add one.
    const row = await this.db
      .insertInto('auth_throttle')
      .values({ key, count: 1, expires_at: expiresAt })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when auth_throttle.expires_at <= ${now} then 1 else auth_throttle.count + 1 end`,
          expires_at: sql<Date>`case when auth_throttle.expires_at <= ${now} then ${expiresAt} else auth_throttle.expires_at end`,
        }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('auth_throttle').where('key', '=', key).execute();
  }

  private async removeExpired(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanup < CLEANUP_INTERVAL_MS) return;
    this.lastCleanup = now;
    await this.db
      .deleteFrom('auth_throttle')
      .where('expires_at', '<=', new Date(now))
      .execute()
      .catch(() => {
        this.lastCleanup = 0;
      });
  }
}
