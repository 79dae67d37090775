import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { randomToken, sha256 } from './crypto.js';

/**
 * A single-use link's token (an address confirmation, a password reset): a random token for the
 * mail, only its hash stored, with its kind and expiry. Answers the token.
 */
export async function issueLinkToken(db: Kysely<DB>, userId: string, kind: 'signup' | 'recovery', ttlMs: number): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('auth_one_time_tokens')
    .values({ token_hash: sha256(token), user_id: userId, kind, expires_at: new Date(Date.now() + ttlMs), used_at: null })
    .execute();
  return token;
}
