import { MFA_METHODS, PASSWORD_CHANGE_REASONS, ROLES } from '@ledger/contract/access-constants.js';
import { decodeJwtPayload } from './jwt.js';
import type { Factor, Session, User } from './auth-types.js';

/*
 * The session as this device keeps it (localStorage): read leniently, written, and its expiry.
 * What is done with it (refresh, sign-out, the reopen rule) is lib/session.ts.
 */

/** Where the session is kept (also what other tabs watch). */
export const SESSION_STORAGE_KEY = 'wallet-ledger.session';

// --- storage -------------------------------------------------------------------------

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage full or blocked: the session then lasts as long as the page.
  }
}

// --- a kept session, read ------------------------------------------------------------

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, otherwise: string): string => (typeof value === 'string' ? value : otherwise);
const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const oneOf = <T extends string>(names: readonly T[], value: unknown): T | null => names.find((name) => name === value) ?? null;

function factorFrom(value: unknown): Factor | null {
  if (!isFields(value) || typeof value.id !== 'string' || value.factor_type !== 'totp') return null;
  return {
    id: value.id,
    factor_type: 'totp',
    status: value.status === 'verified' ? 'verified' : 'unverified',
    friendly_name: textOrNull(value.friendly_name),
    created_at: text(value.created_at, ''),
  };
}

function userFrom(value: Fields): User {
  const meta = isFields(value.user_metadata) ? value.user_metadata : {};
  const reason = oneOf(PASSWORD_CHANGE_REASONS, meta.password_change_reason);
  return {
    id: text(value.id, ''),
    email: text(value.email, ''),
    email_confirmed_at: textOrNull(value.email_confirmed_at),
    banned_until: textOrNull(value.banned_until),
    created_at: text(value.created_at, ''),
    last_sign_in_at: textOrNull(value.last_sign_in_at),
    user_metadata: {
      full_name: text(meta.full_name, ''),
      role: oneOf(ROLES, meta.role) ?? 'USER',
      requires_password_change: meta.requires_password_change === true,
      ...(reason ? { password_change_reason: reason } : {}),
      active_mfa_method: oneOf(MFA_METHODS, meta.active_mfa_method),
    },
    factors: Array.isArray(value.factors) ? value.factors.map(factorFrom).filter((f) => f !== null) : [],
    identities: [],
  };
}

/**
 * A session as this device kept it (or a refresh answered it), or null without both tokens and
 * a user. A copy an older version of the app kept may lack fields the access contract names
 * now, or hold other values: it is read as before, leniently, each such field taking what a
 * new account has (role USER, no second factor, no forced change), until the next read of the
 * user or refresh replaces the copy. Without zod, which the sign-in screen does not download.
 */
export function sessionFrom(value: unknown): Session | null {
  if (!isFields(value) || typeof value.access_token !== 'string' || typeof value.refresh_token !== 'string') return null;
  if (!isFields(value.user)) return null;
  return withExpiry({
    access_token: value.access_token,
    refresh_token: value.refresh_token,
    expires_in: typeof value.expires_in === 'number' ? value.expires_in : 0,
    expires_at: typeof value.expires_at === 'number' ? value.expires_at : 0,
    token_type: 'bearer',
    user: userFrom(value.user),
  });
}

export function parseSession(stored: string | null): Session | null {
  if (!stored) return null;
  try {
    return sessionFrom(JSON.parse(stored));
  } catch {
    return null;
  }
}

export function readStoredSession(): Session | null {
  return parseSession(readStorage(SESSION_STORAGE_KEY));
}

/** Fills in expires_at from expires_in (or the token's exp) when the answer left it out. */
export function withExpiry(session: Session): Session {
  if (typeof session.expires_at === 'number' && session.expires_at > 0) return session;
  const exp = decodeJwtPayload(session.access_token)?.exp;
  const expiresAt = typeof exp === 'number' ? exp : Math.floor(Date.now() / 1000) + (session.expires_in || 0);
  return { ...session, expires_at: expiresAt };
}

export function msLeft(session: Session): number {
  return session.expires_at * 1000 - Date.now();
}
