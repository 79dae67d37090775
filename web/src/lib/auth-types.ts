import { decodeJwtPayload } from './jwt.js';

/** The session and user shapes of the auth API (docs/api-auth.md), and what the client reads from them. */

export type Role = 'USER' | 'WORKER' | 'MANAGER' | 'ADMIN';
export type MfaMethod = 'totp' | 'email';

export type Factor = {
  id: string;
  factor_type: 'totp' | 'phone' | string;
  status: 'verified' | 'unverified' | string;
  friendly_name?: string | null;
  created_at?: string;
};

export type UserMetadata = {
  full_name?: string | null;
  role?: Role | string | null;
  requires_password_change?: boolean | null;
  /** Why, while requires_password_change: a staff reset, or a new account's first sign-in. */
  password_change_reason?: 'reset' | 'new_account' | null;
  active_mfa_method?: MfaMethod | 'none' | null;
};

export type User = {
  id: string;
  email: string;
  email_confirmed_at?: string | null;
  banned_until?: string | null;
  created_at?: string;
  last_sign_in_at?: string | null;
  user_metadata?: UserMetadata | null;
  factors?: Factor[] | null;
  identities?: unknown[] | null;
};

export type Session = {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  /** Seconds since the epoch. */
  expires_at: number;
  token_type: string;
  user: User;
};

export function verifiedTotpFactor(user: User | null | undefined): Factor | null {
  return user?.factors?.find((f) => f.factor_type === 'totp' && f.status === 'verified') ?? null;
}

export function isBanned(user: User): boolean {
  if (!user.banned_until) return false;
  const until = Date.parse(user.banned_until);
  return Number.isFinite(until) && until > Date.now();
}

export function assuranceLevel(session: Session): string | null {
  const aal = decodeJwtPayload(session.access_token)?.aal;
  return typeof aal === 'string' ? aal : null;
}

/**
 * The second step this session still owes, if any: the session is at aal1 and the user
 * has a verified authenticator (or chose e-mail codes).
 */
export function pendingSecondFactor(session: Session | null): MfaMethod | null {
  if (!session || assuranceLevel(session) !== 'aal1') return null;
  if (verifiedTotpFactor(session.user)) return 'totp';
  return session.user.user_metadata?.active_mfa_method === 'email' ? 'email' : null;
}
