import { z } from 'zod';
import { MFA_METHODS, PASSWORD_CHANGE_REASONS, ROLES } from './access-constants.js';
import { Done } from './common.js';

/*
 * Access (spec 000): sign-up, sign-in, sessions, second factors, the captcha, login history,
 * as `/auth/v1` and the account functions answer them (docs/api-auth.md).
 */

export { MFA_METHODS, PASSWORD_CHANGE_REASONS, ROLES };

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
    password_change_reason: z.enum(PASSWORD_CHANGE_REASONS).optional(),
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

/** Spec 001 and 002 section 7: the login history is shown five at a time. */
export const LOGIN_HISTORY_PAGE_SIZE = 5;

/**
 * The login history's query: a page from 1, and, from a staff member opening a customer's
 * profile, whose history (the caller's own without it).
 */
export const LoginHistoryQuery = z.object({
  targetUserId: z.uuid().optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(LOGIN_HISTORY_PAGE_SIZE),
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

/* The request bodies (docs/api-auth.md); the fields the sign-in calls share first. */

/** An e-mail address as the auth calls take it: trimmed, and of the shape local@domain.tld. */
export const AuthEmail = z
  .string()
  .trim()
  .min(3)
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Email address is invalid.');
/** A password as sign-up and sign-in take it (its policy is the server's, auth/password-policy.ts). */
export const AuthPassword = z.string().min(1).max(1024);
/** The captcha's token, once the check is required. */
export const CaptchaSecurity = z.object({ captcha_token: z.string().max(10_000).optional() }).optional();

/** POST /auth/v1/signup. */
export const SignUpBody = z.object({
  email: AuthEmail,
  password: AuthPassword,
  data: z.object({ full_name: z.string().trim().min(1).max(200) }),
  gotrue_meta_security: CaptchaSecurity,
});

/** POST /auth/v1/verify: an e-mailed second-step code, or a reset link's token. */
export const VerifyBody = z.discriminatedUnion('type', [
  z.object({ type: z.literal('email'), email: AuthEmail, token: z.string().max(20) }),
  z.object({ type: z.literal('recovery'), token: z.string().max(200) }),
]);

/** POST /auth/v1/token?grant_type=password with e-mail and password. */
export const PasswordGrantBody = z.object({ email: AuthEmail, password: AuthPassword, gotrue_meta_security: CaptchaSecurity });
/** POST /auth/v1/token?grant_type=refresh_token. */
export const RefreshGrantBody = z.object({ refresh_token: z.string().min(1).max(200) });
/** POST /auth/v1/token: either grant. */
export const TokenBody = z.union([PasswordGrantBody, RefreshGrantBody]);
/** POST /auth/v1/token's query: which grant the body is. */
export const TokenQuery = z.object({ grant_type: z.enum(['password', 'refresh_token']) });

/** GET /auth/v1/verify: the confirmation link of a new account's mail. */
export const ConfirmSignupQuery = z.object({ type: z.literal('signup'), token: z.string().max(200) });

/** POST /auth/v1/logout: this session (default), every one, or every other. */
export const SignOutQuery = z.object({ scope: z.enum(['global', 'local', 'others']).default('local') });

/** POST /auth/v1/otp: a code to an existing account (never creates one). */
export const OtpBody = z.object({
  email: AuthEmail,
  create_user: z.literal(false).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
/** POST /auth/v1/recover: a reset link. */
export const RecoverBody = z.object({ email: AuthEmail, redirect_to: z.string().max(2000).optional() });
/** POST /auth/v1/resend: the sign-up confirmation again. */
export const ResendBody = z.object({ type: z.literal('signup'), email: AuthEmail });

/** PUT /auth/v1/user: a new password, the second-factor choice, the end of a forced password change. */
export const UpdateUserBody = z.object({
  password: z.string().max(1024).optional(),
  /** The current password, unless the session signed in or confirmed it in the last 5 minutes. */
  current_password: z.string().max(1024).optional(),
  data: z
    .object({
      active_mfa_method: z.enum(['totp', 'email']).nullable().optional(),
      requires_password_change: z.literal(false).optional(),
    })
    .optional(),
});

/** POST /auth/v1/factors: enrol an authenticator. */
export const EnrolFactorBody = z.object({ factor_type: z.literal('totp'), friendly_name: z.string().max(100).optional() });
/** POST /auth/v1/factors/:id/verify: the app's 6 digits, or one of the recovery codes (xxxxx-xxxxx) at the second step. */
export const VerifyFactorBody = z.object({ challenge_id: z.uuid(), code: z.string().max(20) });

/** POST /functions/v1/send-welcome-email (its fields are accepted and not used). */
export const WelcomeEmailBody = z.object({ email: z.string().max(254).optional(), name: z.string().max(200).optional() }).optional();
/** POST /functions/v1/verify-and-update-password. */
export const VerifyAndUpdatePasswordBody = z.object({
  oldPassword: z.string().min(1).max(1024),
  newPassword: z.string().max(1024),
  verifyOnly: z.boolean().optional(),
});

export { Done };
