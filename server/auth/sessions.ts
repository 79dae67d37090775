import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { randomToken, sha256 } from './crypto.js';
import { authErrors } from './errors.js';
import { WatchedCache, type WriteWatch } from '../db/write-watch.js';
import { isStaffRole } from '../shared/access.js';

/** How long the guard may reuse what it read of a session (writes by this process end it at once). */
const FOR_REQUEST_MAX_AGE_MS = 1000;
const FOR_REQUEST_CACHE_SIZE = 10_000;

export type Aal = 'aal1' | 'aal2';

export interface AccessClaims {
  sub: string;
  role: string;
  aal: Aal;
  session_id: string;
  /** Unique per token, so that two tokens issued in one second still differ. */
  jti?: string;
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
      })
      .execute();
    return id;
  }

  /** New access and refresh tokens for a live session (earlier unspent refresh tokens are retired). */
  async issue(sessionId: string, userId: string, role: string): Promise<IssuedTokens> {
    const session = await this.db.selectFrom('auth_sessions').select(['aal', 'revoked_at']).where('id', '=', sessionId).executeTakeFirst();
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
    return this.tokens(sessionId, userId, role, session.aal, refresh);
  }

  private tokens(sessionId: string, userId: string, role: string, aal: Aal, refresh: string): IssuedTokens {
    const now = Math.floor(Date.now() / 1000);
    return {
      access_token: this.sign({ sub: userId, role, aal, session_id: sessionId, jti: randomUUID() }, this.ttlSeconds),
      refresh_token: refresh,
      expires_in: this.ttlSeconds,
      expires_at: now + this.ttlSeconds,
      token_type: 'bearer',
    };
  }

  /** Spends a refresh token for a new pair. Reuse of a spent one ends the session. */
  async refresh(
    refreshToken: string,
    roleOf: (userId: string) => Promise<{ role: string; banned: boolean } | null>,
  ): Promise<IssuedTokens & { userId: string }> {
    const hash = sha256(refreshToken);
    const row = await this.db
      .selectFrom('auth_refresh_tokens as t')
      .innerJoin('auth_sessions as s', 's.id', 't.session_id')
      .select(['t.session_id', 't.spent_at', 's.user_id', 's.revoked_at', 's.aal', 's.created_at', 's.refreshed_at'])
      .where('t.token_hash', '=', hash)
      .executeTakeFirst();
    if (!row || row.revoked_at) throw authErrors.refreshInvalid();
    if (row.spent_at) {
      await this.revoke(row.session_id);
      throw authErrors.refreshReused();
    }
    const spent = await this.db
      .updateTable('auth_refresh_tokens')
      .set({ spent_at: new Date() })
      .where('token_hash', '=', hash)
      .where('spent_at', 'is', null)
      .returning('token_hash')
      .executeTakeFirst();
    if (!spent) {
      // Lost a race with another use of the same token: that is reuse too.
      await this.revoke(row.session_id);
      throw authErrors.refreshReused();
    }
    const user = await roleOf(row.user_id);
    if (!user || user.banned || this.endsAt(user.role, row) <= Date.now()) {
      await this.revoke(row.session_id);
      throw authErrors.refreshInvalid();
    }
    const next = randomToken();
    await this.db
      .insertInto('auth_refresh_tokens')
      .values({ token_hash: sha256(next), session_id: row.session_id, spent_at: null })
      .execute();
    await this.db.updateTable('auth_sessions').set({ refreshed_at: new Date() }).where('id', '=', row.session_id).execute();
    return { ...this.tokens(row.session_id, row.user_id, user.role, row.aal, next), userId: row.user_id };
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
        eb
          .exists(
            eb.selectFrom('auth_mfa_factors as f').select('f.id').whereRef('f.user_id', '=', 'u.id').where('f.status', '=', 'verified'),
          )
          .as('has_verified_factor'),
      ])
      .where('s.id', '=', sessionId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { session_id, session_user_id, session_aal, session_recovery, session_revoked_at, has_verified_factor, ...user } = row;
    return {
      session: { id: session_id, user_id: session_user_id, aal: session_aal, recovery: session_recovery, revoked_at: session_revoked_at },
      user,
      hasVerifiedFactor: Boolean(has_verified_factor),
    };
  }

  async upgrade(sessionId: string, changes: { aal?: Aal; emailOtpVerifiedAt?: Date; reauthenticatedAt?: Date }): Promise<void> {
    await this.db
      .updateTable('auth_sessions')
      .set({
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
