import type { z } from 'zod';
import type { FactorView, SecondStepAnswer, SessionAnswer, UserView } from '@ledger/contract/access.js';
import type { MfaMethod } from '@ledger/contract/access-constants.js';
import { decodeJwtPayload } from './jwt.js';

/*
 * The session and user shapes of the auth API are the access contract's (type-only imports: the
 * sign-in screen downloads no zod); here is what the client reads from them.
 */

export type { MfaMethod, Role } from '@ledger/contract/access-constants.js';
export type Session = z.infer<typeof SessionAnswer>;
/** A passed second step: the session, and an authenticator's recovery codes at its first verification. */
export type SecondStep = z.infer<typeof SecondStepAnswer>;
export type User = UserView;
export type UserMetadata = User['user_metadata'];
export type Factor = z.infer<typeof FactorView>;

export function verifiedTotpFactor(user: User | null | undefined): Factor | null {
  return user?.factors.find((f) => f.factor_type === 'totp' && f.status === 'verified') ?? null;
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
  return session.user.user_metadata.active_mfa_method === 'email' ? 'email' : null;
}
