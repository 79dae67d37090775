import type { z } from 'zod';
import type { SignUpBody } from '@ledger/contract/access.js';
import { anonymous, postJson } from '@/lib/api-client.js';
import type { User } from '@/lib/auth-types.js';

export type SignUpInput = { fullName: string; email: string; password: string; captchaToken: string };

/** POST /auth/v1/signup: creates the account; a confirmation e-mail follows, no session. */
export function signUp({ fullName, email, password, captchaToken }: SignUpInput): Promise<User> {
  const body: z.input<typeof SignUpBody> = {
    email: email.trim(),
    password,
    data: { full_name: fullName.trim() },
    gotrue_meta_security: { captcha_token: captchaToken },
  };
  return postJson('auth/v1/signup', body, anonymous());
}
