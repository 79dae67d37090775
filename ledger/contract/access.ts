import { z } from 'zod';
import { Done } from './common.js';

/*
 * Access (spec 000): sign-up, sign-in, sessions, second factors, the captcha, login history,
 * as `/auth/v1` and the account functions answer them (docs/api-auth.md).
 */

export const ROLES = ['USER', 'WORKER', 'MANAGER', 'ADMIN'] as const;
export const MFA_METHODS = ['totp', 'email'] as const;

/** A second factor as the user object lists it. */
export const FactorView = z.object({
  id: z.string(),
  factor_type: z.literal('totp'),
  status: z.enum(['verified', 'unverified']),
  friendly_name: z.string().nullable(),
  created_at: z.string(),
});

/** The signed-in account (spec 000 section 3, `user`). */
export const UserView = z.object({
  id: z.string(),
  email: z.string(),
  email_confirmed_at: z.string().nullable(),
  banned_until: z.string().nullable(),
  created_at: z.string(),
  last_sign_in_at: z.string().nullable(),
  user_metadata: z.object({
    full_name: z.string(),
    role: z.enum(ROLES),
    requires_password_change: z.boolean(),
    password_change_reason: z.enum(['reset', 'new_account']).optional(),
    active_mfa_method: z.enum(MFA_METHODS).nullable(),
  }),
  factors: z.array(FactorView),
  identities: z.array(z.never()),
});
export type UserView = z.infer<typeof UserView>;

/** A session's tokens (spec 000 section 3). */
export const IssuedTokens = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number(),
  expires_at: z.number(),
  token_type: z.literal('bearer'),
});
export type IssuedTokens = z.infer<typeof IssuedTokens>;

/** Sign-in, refresh, a reset link and a passed second step: the tokens and the user. */
export const SessionAnswer = IssuedTokens.extend({ user: UserView });

/** A passed second step; an authenticator's first verification adds its one-time recovery codes. */
export const SecondStepAnswer = SessionAnswer.extend({ recovery_codes: z.array(z.string()).optional() });

/** A new authenticator to scan, before its first code. */
export const Enrolment = z.object({
  id: z.string(),
  type: z.literal('totp'),
  totp: z.object({ qr_code: z.string(), secret: z.string(), uri: z.string() }),
});

/** A challenge to answer with a code; `expires_at` in seconds since 1970. */
export const Challenge = z.object({ id: z.string(), expires_at: z.number() });

export const FactorRemoved = z.object({ id: z.string() });

/** The calls that mail (a code, a reset link, a confirmation) answer nothing, whoever asked. */
export const Accepted = z.object({});

/** A live session of the account (Settings > Security). */
export const LiveSession = z.object({
  id: z.string(),
  created_at: z.string(),
  last_active_at: z.string(),
  expires_at: z.string(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  current: z.boolean(),
});

/** One sign-in of the login history. */
export const LoginEntry = z.object({
  id: z.string(),
  timestamp: z.string(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
});

/** An ALTCHA v1 challenge, or `{provider}` when the provider's own widget makes the token. */
export const CaptchaChallenge = z.union([
  z.object({
    algorithm: z.string(),
    challenge: z.string(),
    maxnumber: z.number().int().optional(),
    salt: z.string(),
    signature: z.string(),
  }),
  z.object({ provider: z.string() }),
]);

export const CaptchaVerifyBody = z.object({ captchaToken: z.string().min(1).max(10_000) });

export const CaptchaVerdict = z.union([z.object({ success: z.literal(true) }), z.object({ success: z.literal(false), error: z.string() })]);

export { Done };
