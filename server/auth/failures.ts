import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { authErrors } from './errors.js';

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
  await db.insertInto('auth_failures').values(keys.map((key) => ({ key }))).execute();
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
