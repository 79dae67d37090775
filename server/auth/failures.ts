import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { authErrors } from './errors.js';
import { altchaCostFor } from '../captcha/captcha.js';
import type { ThrottleStore } from './throttle.js';

/**
 * Failed attempts, one `auth_failures` row each, under a key naming their kind and whom they
 * concern: `email:{address}` and `ip:{address}` for password sign-in; `totp:{userId}`,
 * `email-code:{userId}` and `reauth:{userId}` for authenticator codes, e-mailed codes and the
 * password re-check. They live in the database, so neither a restart nor another app instance
 * forgets them (the per-route request limits are per process and in memory).
 */
export const FAILURE_WINDOW_MS = 15 * 60_000;
/** Failures of one kind for one key within the window before further attempts are refused (429). */
export const MAX_FAILURES = 10;

export async function recentFailures(db: Kysely<DB>, key: string): Promise<number> {
  const row = await db
    .selectFrom('auth_failures')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('key', '=', key)
    .where('at', '>', new Date(Date.now() - FAILURE_WINDOW_MS))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function recordFailures(db: Kysely<DB>, keys: string[]): Promise<void> {
  await db
    .insertInto('auth_failures')
    .values(keys.map((key) => ({ key })))
    .execute();
}

/** A success: the key's failures no longer count. */
export async function clearFailures(db: Kysely<DB>, key: string): Promise<void> {
  await db.deleteFrom('auth_failures').where('key', '=', key).execute();
}

/**
 * Call right before checking a secret (a code, a password). Refuses (429 `rate_limited`) once
 * the key has MAX_FAILURES failures in the window; otherwise records this attempt as a failure
 * up front, which `clearFailures` undoes on success. Counting before checking keeps a burst of
 * parallel attempts (from several addresses or instances) from all passing a count of 9.
 */
export async function countAttempt(db: Kysely<DB>, key: string): Promise<void> {
  if ((await recentFailures(db, key)) >= MAX_FAILURES) throw authErrors.rateLimited();
  await recordFailures(db, [key]);
  if ((await recentFailures(db, key)) > MAX_FAILURES) throw authErrors.rateLimited();
}

/**
 * Password sign-in throttling, per address and per client, with no lock: failures for an
 * address make every sign-in to it need a solved captcha, and a client's own failures and
 * request rate make its captcha dearer and, past CLIENT_DELAY_FROM failures, make it wait
 * longer between attempts. A stranger's failures thus cost the stranger; the owner, from
 * their own client, signs in with the right password and a solved captcha.
 */
export class SignInThrottle {
  /** The client's failures in the window from which each further failure makes it wait. */
  static readonly CLIENT_DELAY_FROM = 5;
  static readonly CLIENT_DELAY_MAX_MS = 60_000;
  /** Captcha challenges a client may fetch per minute before more raise its cost (times RATE_LIMIT_FACTOR). */
  static readonly CHALLENGES_PER_MINUTE = 20;

  constructor(
    readonly store: ThrottleStore,
    private readonly rateFactor = 1,
  ) {}

  /** How long a client waits after its `failures`-th failure: 1 s, 2 s, 4 s … up to a minute. */
  static delayMs(failures: number): number {
    if (failures < SignInThrottle.CLIENT_DELAY_FROM) return 0;
    return Math.min(1000 * 2 ** Math.floor(failures - SignInThrottle.CLIENT_DELAY_FROM), SignInThrottle.CLIENT_DELAY_MAX_MS);
  }

  /**
   * The client's failed sign-ins in the window, plus its challenge requests past the allowance
   * this minute; RATE_LIMIT_FACTOR divides it, as it multiplies the per-route limits.
   */
  async suspicion(client: string): Promise<number> {
    const [failures, challenges] = await Promise.all([this.store.get(`ip:${client}`), this.store.get(`challenges:${client}`)]);
    return Math.floor((failures + Math.max(0, challenges - SignInThrottle.CHALLENGES_PER_MINUTE * this.rateFactor)) / this.rateFactor);
  }

  /** Counts a captcha challenge fetched by the client and answers its cost. */
  async challengeCost(client: string): Promise<number> {
    await this.store.increment(`challenges:${client}`, 60_000);
    return altchaCostFor(await this.suspicion(client));
  }

  /**
   * Before a password is checked: refuses (429) a client still waiting out its delay; counts
   * the attempt for the address up front (so that of parallel attempts only the first may go
   * without a captcha); answers whether a captcha is needed and the least cost it must have.
   */
  async beforeAttempt(email: string, client: string): Promise<{ captchaNeeded: boolean; minCost: number }> {
    const failures = await this.store.get(`ip:${client}`);
    if (SignInThrottle.delayMs(failures / this.rateFactor) > 0 && (await this.store.get(`wait:${client}:${failures}`)) > 0)
      throw authErrors.rateLimited();
    const attempts = await this.store.increment(`email:${email}`, FAILURE_WINDOW_MS);
    return { captchaNeeded: attempts > 1 || failures > 0, minCost: altchaCostFor(await this.suspicion(client)) };
  }

  async failed(client: string): Promise<void> {
    const failures = await this.store.increment(`ip:${client}`, FAILURE_WINDOW_MS);
    const delay = SignInThrottle.delayMs(failures / this.rateFactor);
    if (delay > 0) await this.store.increment(`wait:${client}:${failures}`, delay);
  }

  /** The right password: the address's attempts no longer count (the client's failures do). */
  async succeeded(email: string): Promise<void> {
    await this.store.reset(`email:${email}`);
  }
}
