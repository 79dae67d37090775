import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { randomToken, sha256 } from './crypto.js';
import { authErrors } from './errors.js';
import { WatchedCache, type WriteWatch } from '../db/write-watch.js';
import { isStaffRole } from '../shared/access.js';
import { decrypt, encrypt } from '../secrets.js';

/** How long the guard may reuse what it read of a session (writes by this process end it at once). */
const FOR_REQUEST_MAX_AGE_MS = 1000;
const FOR_REQUEST_CACHE_SIZE = 10_000;

export type Aal = 'aal1' | 'aal2';

/**
 * How a session's owner proved who they are, in GoTrue's words (its `amr` claim): the password,
 * a reset link ('recovery'), an authenticator's code ('totp'), an e-mailed code ('otp') or a
 * one-time recovery code ('recovery_code').
 */
export type AuthMethod = 'password' | 'recovery' | 'totp' | 'otp' | 'recovery_code';

/** One entry of the `amr` claim: a method and when it was used (seconds since the epoch). */
export interface AmrEntry {
  method: AuthMethod;
  timestamp: number;
}

/** A spent refresh token used again within this long returns the pair it was exchanged for (two tabs, a retry). */
export const REFRESH_REUSE_GRACE_MS = 10_000;

export interface AccessClaims {
  sub: string;
  role: string;
  aal: Aal;
  session_id: string;
  /** Unique per token, so that two tokens issued in one second still differ. */
  jti?: string;
  /** The session's authentication methods, newest first, as GoTrue's tokens carry them. */
  amr?: AmrEntry[];
}

export type { IssuedTokens } from '../../ledger/contract/access.js';
import type { IssuedTokens } from '../../ledger/contract/access.js';

export type SignAccessToken = (claims: AccessClaims, expiresInSeconds: number) => string;

/** How long a session lives: unused (`idleMs`, since sign-in or its last refresh) and at most (`maxMs`, since sign-in). */
export interface SessionLifetime {
  idleMs: number;
  maxMs: number;
}

/** Customers' and staff members' lifetimes (SESSION_IDLE_DAYS and the like in the configuration). */
export interface SessionLifetimes {
  customer: SessionLifetime;
  staff: SessionLifetime;
}

const DAY_MS = 24 * 3600_000;

/** A reset link's session exists to set a new password: it ends this long after the link was used, or at the change. */
export const RECOVERY_SESSION_MS = 15 * 60_000;

/** Whether a reset link's session has outlived RECOVERY_SESSION_MS. */
export function recoveryExpired(session: { recovery: boolean; created_at: Date | string }, now = Date.now()): boolean {
  return session.recovery && new Date(session.created_at).getTime() + RECOVERY_SESSION_MS <= now;
}
export const DEFAULT_LIFETIMES: SessionLifetimes = {
  customer: { idleMs: 7 * DAY_MS, maxMs: 30 * DAY_MS },
  staff: { idleMs: 30 * 60_000, maxMs: 12 * 3600_000 },
};

/** A live session as the account's security settings list it. */
export interface SessionListing {
  id: string;
  created_at: string;
  last_active_at: string;
  expires_at: string;
  ip_address: string | null;
  user_agent: string | null;
  current: boolean;
}

/** Sessions this process just ended: one session, or a user's (all, or all but `except`). */
export type SessionsEnded = { sessionId: string } | { userId: string; except?: string };

/**
 * Sessions and refresh tokens. A refresh token is opaque, stored as its SHA-256, and
 * spent by its first use; a spent token used again means it was copied, so the whole
 * session ends (rotation with reuse detection).
 */
export class SessionService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly sign: SignAccessToken,
    private readonly ttlSeconds: number,
    /** When given, `forRequest` answers repeated calls from memory until a watched table is written. */
    watch?: WriteWatch,
    private readonly lifetimes: SessionLifetimes = DEFAULT_LIFETIMES,
    /** Encrypts a spent refresh token's successor pair for the grace; without it a repeat ends the session. */
    private readonly dataKey?: Buffer,
  ) {
    this.recent =
      watch &&
      new WatchedCache(watch, { maxAgeMs: FOR_REQUEST_MAX_AGE_MS, maxSize: FOR_REQUEST_CACHE_SIZE, keep: (found) => found !== undefined });
  }

  /** session id -> what `forRequest` read (an unknown session is read again each time). */
  private readonly recent: WatchedCache<Awaited<ReturnType<SessionService['readForRequest']>>> | undefined;

  async create(
    userId: string,
    opts: { aal: Aal; recovery?: boolean; ipAddress: string | null; userAgent: string | null },
  ): Promise<string> {
    const id = randomUUID();
    const amr: AmrEntry[] = [{ method: opts.recovery ? 'recovery' : 'password', timestamp: Math.floor(Date.now() / 1000) }];
    await this.db
      .insertInto('auth_sessions')
      .values({
        id,
        user_id: userId,
        aal: opts.aal,
        recovery: opts.recovery ?? false,
        ip_address: opts.ipAddress,
        user_agent: opts.userAgent?.slice(0, 512) ?? null,
        reauthenticated_at: null,
        email_otp_verified_at: null,
        revoked_at: null,
        amr: JSON.stringify(amr),
      })
      .execute();
    return id;
  }

  /** New access and refresh tokens for a live session (earlier unspent refresh tokens are retired). */
  async issue(sessionId: string, userId: string, role: string): Promise<IssuedTokens> {
    const session = await this.db
      .selectFrom('auth_sessions')
      .select(['aal', 'revoked_at', 'amr'])
      .where('id', '=', sessionId)
      .executeTakeFirst();
    if (!session || session.revoked_at) throw authErrors.notAuthenticated();
    const refresh = randomToken();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('auth_refresh_tokens')
        .set({ spent_at: new Date() })
        .where('session_id', '=', sessionId)
        .where('spent_at', 'is', null)
        .execute();
      await trx
        .insertInto('auth_refresh_tokens')
        .values({ token_hash: sha256(refresh), session_id: sessionId, spent_at: null })
        .execute();
    });
    return this.tokens(sessionId, userId, role, session.aal, refresh, session.amr);
  }

  private tokens(sessionId: string, userId: string, role: string, aal: Aal, refresh: string, amr: string): IssuedTokens {
    const now = Math.floor(Date.now() / 1000);
    return {
      access_token: this.sign(
        { sub: userId, role, aal, amr: JSON.parse(amr) as AmrEntry[], session_id: sessionId, jti: randomUUID() },
        this.ttlSeconds,
      ),
      refresh_token: refresh,
      expires_in: this.ttlSeconds,
      expires_at: now + this.ttlSeconds,
      token_type: 'bearer',
    };
  }

  /**
   * Spends a refresh token for a new pair. A spent one used again within REFRESH_REUSE_GRACE_MS
   * (two tabs, a retry, a parallel refresh) answers the same pair it was exchanged for; later, it
   * was copied, and the whole session ends. A reset link's session is never refreshed.
   */
  async refresh(
    refreshToken: string,
    roleOf: (userId: string) => Promise<{ role: string; banned: boolean } | null>,
  ): Promise<IssuedTokens & { userId: string }> {
    const hash = sha256(refreshToken);
    const row = await this.refreshTokenRow(hash);
    if (!row || row.revoked_at) throw authErrors.refreshInvalid();
    if (row.recovery) {
      await this.revoke(row.session_id);
      throw authErrors.refreshInvalid();
    }
    if (row.spent_at) return this.repeatOrEnd(row);
    const user = await roleOf(row.user_id);
    if (!user || user.banned || this.endsAt(user.role, row) <= Date.now()) {
      await this.revoke(row.session_id);
      throw authErrors.refreshInvalid();
    }
    const next = randomToken();
    const pair = this.tokens(row.session_id, row.user_id, user.role, row.aal, next, row.amr);
    const now = new Date();
    // The token is spent, its successor stored and the session's use noted at once: of two
    // parallel uses one wins here, the other finds the winner's pair (repeatOrEnd).
    const won = await this.db.transaction().execute(async (trx) => {
      const spent = await trx
        .updateTable('auth_refresh_tokens')
        .set({ spent_at: now, successor_encrypted: this.dataKey ? encrypt(this.dataKey, JSON.stringify(pair)) : null })
        .where('token_hash', '=', hash)
        .where('spent_at', 'is', null)
        .returning('token_hash')
        .executeTakeFirst();
      if (!spent) return false;
      await trx
        .insertInto('auth_refresh_tokens')
        .values({ token_hash: sha256(next), session_id: row.session_id, spent_at: null })
        .execute();
      await trx.updateTable('auth_sessions').set({ refreshed_at: now }).where('id', '=', row.session_id).execute();
      // A pair kept for the grace is no longer needed once it has passed.
      await trx
        .updateTable('auth_refresh_tokens')
        .set({ successor_encrypted: null })
        .where('session_id', '=', row.session_id)
        .where('spent_at', '<', new Date(now.getTime() - REFRESH_REUSE_GRACE_MS))
        .where('successor_encrypted', 'is not', null)
        .execute();
      return true;
    });
    if (!won) {
      const again = await this.refreshTokenRow(hash);
      if (!again || again.revoked_at) throw authErrors.refreshInvalid();
      return this.repeatOrEnd(again);
    }
    return { ...pair, userId: row.user_id };
  }

  private refreshTokenRow(hash: string) {
    return this.db
      .selectFrom('auth_refresh_tokens as t')
      .innerJoin('auth_sessions as s', 's.id', 't.session_id')
      .select([
        't.session_id',
        't.spent_at',
        't.successor_encrypted',
        's.user_id',
        's.revoked_at',
        's.aal',
        's.amr',
        's.recovery',
        's.created_at',
        's.refreshed_at',
      ])
      .where('t.token_hash', '=', hash)
      .executeTakeFirst();
  }

  /** A spent token used again: within the grace, the pair it gave; after it, the session ends (it was copied). */
  private async repeatOrEnd(row: {
    session_id: string;
    user_id: string;
    spent_at: Date | null;
    successor_encrypted: string | null;
  }): Promise<IssuedTokens & { userId: string }> {
    const withinGrace = row.spent_at !== null && Date.now() - new Date(row.spent_at).getTime() <= REFRESH_REUSE_GRACE_MS;
    if (withinGrace && row.successor_encrypted && this.dataKey) {
      const pair = JSON.parse(decrypt(this.dataKey, row.successor_encrypted)) as IssuedTokens;
      return { ...pair, userId: row.user_id };
    }
    await this.revoke(row.session_id);
    throw authErrors.refreshReused();
  }

  /** When a session of a user with `role` ends: idle since its last refresh, or at its absolute end. */
  endsAt(role: string, session: { created_at: Date | string; refreshed_at: Date | string }): number {
    const lifetime = isStaffRole(role) ? this.lifetimes.staff : this.lifetimes.customer;
    return Math.min(new Date(session.refreshed_at).getTime() + lifetime.idleMs, new Date(session.created_at).getTime() + lifetime.maxMs);
  }

  /** The user's sessions that are neither ended nor expired, newest first; `current` marks the caller's. */
  async listLive(userId: string, role: string, currentSessionId: string): Promise<SessionListing[]> {
    const rows = await this.db
      .selectFrom('auth_sessions')
      .select(['id', 'created_at', 'refreshed_at', 'ip_address', 'user_agent'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('recovery', '=', false)
      .orderBy('created_at', 'desc')
      .limit(100)
      .execute();
    const now = Date.now();
    return rows
      .map((r) => ({ r, endsAt: this.endsAt(role, r) }))
      .filter(({ endsAt }) => endsAt > now)
      .map(({ r, endsAt }) => ({
        id: r.id,
        created_at: new Date(r.created_at).toISOString(),
        last_active_at: new Date(r.refreshed_at).toISOString(),
        expires_at: new Date(endsAt).toISOString(),
        ip_address: r.ip_address,
        user_agent: r.user_agent,
        current: r.id === currentSessionId,
      }));
  }

  /** Ends one of the user's own sessions; false when the user has no such live session. */
  async revokeOwn(userId: string, sessionId: string): Promise<boolean> {
    const ended = await this.db
      .updateTable('auth_sessions')
      .set({ revoked_at: new Date() })
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (ended) this.ended({ sessionId });
    return Boolean(ended);
  }

  async get(sessionId: string) {
    return this.db.selectFrom('auth_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
  }

  /**
   * The session, its user and whether the user has a verified factor, for the guard. With a
   * write watch the answer is reused for up to FOR_REQUEST_MAX_AGE_MS, but never after this
   * process wrote users, sessions or factors (a sign-out, ban, role or factor change takes
   * effect on the next request); only another process's writes wait out the age limit.
   */
  async forRequest(sessionId: string) {
    return this.recent ? this.recent.get(sessionId, () => this.readForRequest(sessionId)) : this.readForRequest(sessionId);
  }

  private async readForRequest(sessionId: string) {
    const row = await this.db
      .selectFrom('auth_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .selectAll('u')
      .select((eb) => [
        's.id as session_id',
        's.user_id as session_user_id',
        's.aal as session_aal',
        's.recovery as session_recovery',
        's.revoked_at as session_revoked_at',
        's.created_at as session_created_at',
        eb
          .exists(
            eb.selectFrom('auth_mfa_factors as f').select('f.id').whereRef('f.user_id', '=', 'u.id').where('f.status', '=', 'verified'),
          )
          .as('has_verified_factor'),
      ])
      .where('s.id', '=', sessionId)
      .executeTakeFirst();
    if (!row) return undefined;
    const {
      session_id,
      session_user_id,
      session_aal,
      session_recovery,
      session_revoked_at,
      session_created_at,
      has_verified_factor,
      ...user
    } = row;
    return {
      session: {
        id: session_id,
        user_id: session_user_id,
        aal: session_aal,
        recovery: session_recovery,
        revoked_at: session_revoked_at,
        created_at: session_created_at,
      },
      user,
      hasVerifiedFactor: Boolean(has_verified_factor),
    };
  }

  async upgrade(
    sessionId: string,
    changes: { aal?: Aal; emailOtpVerifiedAt?: Date; reauthenticatedAt?: Date; method?: AuthMethod },
  ): Promise<void> {
    let amr: string | undefined;
    if (changes.method) {
      const row = await this.db.selectFrom('auth_sessions').select('amr').where('id', '=', sessionId).executeTakeFirst();
      const earlier = (JSON.parse(row?.amr ?? '[]') as AmrEntry[]).filter((e) => e.method !== changes.method);
      amr = JSON.stringify([{ method: changes.method, timestamp: Math.floor(Date.now() / 1000) }, ...earlier]);
    }
    await this.db
      .updateTable('auth_sessions')
      .set({
        ...(amr ? { amr } : {}),
        ...(changes.aal ? { aal: changes.aal } : {}),
        ...(changes.emailOtpVerifiedAt ? { email_otp_verified_at: changes.emailOtpVerifiedAt } : {}),
        ...(changes.reauthenticatedAt ? { reauthenticated_at: changes.reauthenticatedAt } : {}),
      })
      .where('id', '=', sessionId)
      .execute();
  }

  private readonly endedListeners = new Set<(ended: SessionsEnded) => void>();

  /** Tells `listener` of each revocation made by this process (after it is written); returns the way to stop. */
  onEnded(listener: (ended: SessionsEnded) => void): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  private ended(ended: SessionsEnded): void {
    for (const listener of [...this.endedListeners]) {
      try {
        listener(ended);
      } catch {
        // A listener's failure must not fail the sign-out, ban or password change.
      }
    }
  }

  /** Of these sessions, those that are revoked, missing, or whose user is banned now. */
  async endedAmong(sessionIds: readonly string[]): Promise<Set<string>> {
    const ended = new Set(sessionIds);
    for (let i = 0; i < sessionIds.length; i += 1000) {
      const live = await this.db
        .selectFrom('auth_sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select('s.id')
        .where('s.id', 'in', sessionIds.slice(i, i + 1000))
        .where('s.revoked_at', 'is', null)
        .where((eb) => eb.or([eb('u.banned_until', 'is', null), eb('u.banned_until', '<=', new Date())]))
        .execute();
      for (const row of live) ended.delete(row.id);
    }
    return ended;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db
      .updateTable('auth_sessions')
      .set({ revoked_at: new Date() })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
    this.ended({ sessionId });
  }

  /** Ends every session of the user, or all but `except`. */
  async revokeAll(userId: string, except?: string): Promise<void> {
    let q = this.db
      .updateTable('auth_sessions')
      .set({ revoked_at: new Date() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (except) q = q.where('id', '!=', except);
    await q.execute();
    this.ended({ userId, except });
  }
}
