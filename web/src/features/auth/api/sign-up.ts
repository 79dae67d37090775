import { anonymous, postJson } from '../../../lib/api-client.js';
import type { User } from '../../../lib/auth-types.js';

export type SignUpInput = { fullName: string; email: string; password: string; captchaToken: string };

/** POST /auth/v1/signup: creates the account; a confirmation e-mail follows, no session. */
export function signUp({ fullName, email, password, captchaToken }: SignUpInput): Promise<{ user?: User } | User> {
  return postJson(
    'auth/v1/signup',
    {
      email: email.trim(),
      password,
      data: { full_name: fullName.trim() },
      gotrue_meta_security: { captcha_token: captchaToken },
    },
    anonymous(),
  );
}

/** Fire and forget: the welcome mail is a courtesy, its failure is nobody's problem. */
export function sendWelcomeEmail(email: string, name: string): void {
  postJson('functions/v1/send-welcome-email', { email: email.trim(), name: name.trim() || 'there' }, anonymous()).catch(
    () => undefined,
  );
}
