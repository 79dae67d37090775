import type { z } from 'zod';
import type { OtpBody, PasswordGrantBody, RecoverBody, VerifyBody } from '@ledger/contract/access.js';
import { anonymous, postJson } from '@/lib/api-client.js';
import type { Session } from '@/lib/auth-types.js';

/** POST /auth/v1/token?grant_type=password; the captcha token once the check is required. */
export function signInWithPassword(email: string, password: string, captchaToken: string | null): Promise<Session> {
  const body: z.input<typeof PasswordGrantBody> = {
    email: email.trim(),
    password,
    ...(captchaToken ? { gotrue_meta_security: { captcha_token: captchaToken } } : {}),
  };
  return postJson<Session>('auth/v1/token?grant_type=password', body, anonymous());
}

/** Records time, IP and browser of this sign-in. Its failure never stops a sign-in. */
export async function logLoginDetails(): Promise<void> {
  try {
    await postJson('functions/v1/log-login-details');
  } catch {
    // Ignored by design (spec 4.1).
  }
}

/** Sends a six-digit code to an existing account; never creates one. */
export async function sendEmailOtp(email: string): Promise<void> {
  const body: z.input<typeof OtpBody> = { email, create_user: false };
  await postJson('auth/v1/otp', body);
}

/** Trades the e-mailed code for a session at the second assurance level. */
export function verifyEmailOtp(email: string, token: string): Promise<Session> {
  const body: z.input<typeof VerifyBody> = { type: 'email', email, token };
  return postJson<Session>('auth/v1/verify', body);
}

/** Asks for a reset link that leads back to /update-password on this site. */
export async function requestPasswordReset(email: string): Promise<void> {
  const body: z.input<typeof RecoverBody> = { email: email.trim(), redirect_to: `${window.location.origin}/update-password` };
  await postJson('auth/v1/recover', body, anonymous());
}
