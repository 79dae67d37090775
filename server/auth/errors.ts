import { MFA_EMAIL_ON, MFA_TOTP_ON } from '../../ledger/user/user.js';

/** An auth refusal: `{ error, code }` with its status (docs/api-auth.md). */
export class AuthError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

export const authErrors = {
  invalidCredentials: () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials'),
  emailNotConfirmed: () => new AuthError(400, 'email_not_confirmed', 'Email not confirmed'),
  banned: () => new AuthError(400, 'user_banned', 'User is banned'),
  captchaRequired: () => new AuthError(400, 'captcha_required', 'Please complete the verification challenge.'),
  captchaFailed: (reason: string) => new AuthError(400, 'captcha_failed', `CAPTCHA verification failed: ${reason}`),
  /** `message` is the rule the password breaks (password-policy.ts). */
  weakPassword: (message: string) => new AuthError(400, 'weak_password', message),
  emailExists: () => new AuthError(422, 'email_exists', 'A user with this email address has already been registered'),
  notAuthenticated: () => new AuthError(401, 'not_authenticated', 'Session expired or invalid. Please sign in again.'),
  mfaRequired: () => new AuthError(403, 'mfa_required', 'Two-factor authentication is required to continue.'),
  passwordChangeRequired: () => new AuthError(403, 'password_change_required', 'You must set a new password before continuing.'),
  recoveryPasswordOnly: () => new AuthError(403, 'recovery_password_only', 'A password reset link can only be used to set a new password.'),
  reauthRequired: () => new AuthError(403, 'reauthentication_required', 'Please enter your password to continue.'),
  refreshReused: () => new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
  refreshInvalid: () => new AuthError(400, 'invalid_refresh_token', 'Invalid Refresh Token'),
  otpInvalid: () => new AuthError(400, 'otp_invalid', 'Invalid verification code. Please try again.'),
  otpExpired: () => new AuthError(400, 'otp_expired', 'Invalid or expired verification code. Please try again.'),
  mfaFailed: () => new AuthError(400, 'mfa_verification_failed', 'Invalid verification code. Please try again.'),
  /** An e-mailed code is no second step for an account whose second step is the authenticator app. */
  emailCodeNotAccepted: () =>
    new AuthError(
      403,
      'email_otp_not_allowed',
      'Your account uses an authenticator app for two-factor authentication. Please enter the code from your authenticator app.',
    ),
  /** Spec 001 section 4: one second factor at a time. */
  emailMfaActive: () => new AuthError(409, 'mfa_method_conflict', MFA_EMAIL_ON),
  totpMfaActive: () => new AuthError(409, 'mfa_method_conflict', MFA_TOTP_ON),
  factorNotFound: () => new AuthError(404, 'factor_not_found', 'No verified authenticator app found for your account.'),
  /** A verified authenticator's recovery codes are spent or wrong. */
  recoveryCodeInvalid: () => new AuthError(400, 'mfa_verification_failed', 'Invalid recovery code. Please try again.'),
  /** A recovery code that signed in once already: each works once. */
  recoveryCodeUsed: () =>
    new AuthError(400, 'recovery_code_used', 'This recovery code has already been used. Each code works once: please use another one.'),
  rateLimited: () => new AuthError(429, 'rate_limited', 'Too many attempts. Please wait a few minutes and try again.'),
};
