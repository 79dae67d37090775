/** Every text of the access screens that the spec words (sections 5 and 8), in one place. */
export const MESSAGES = {
  emailRequired: 'Email is required.',
  emailInvalid: 'Email address is invalid.',
  passwordRequired: 'Password is required.',
  captchaRequired: 'Please complete the verification challenge.',
  codeRequired: 'Please enter the verification code',

  fullNameRequired: 'Full Name is required.',
  passwordTooShort: 'Password must be at least 8 characters long.',
  confirmPasswordRequired: 'Please confirm your password.',
  passwordsDoNotMatch: 'Passwords do not match.',

  newPasswordRequired: 'New password is required.',
  confirmNewPasswordRequired: 'Please confirm your new password.',
  passwordRequirementsNotMet: 'Password requirements not met.',
  forcedBothRequired: 'Please enter and confirm your new password.',

  invalidCredentials: 'Invalid email or password.',
  emailNotConfirmed: 'Please confirm your email address first.',
  banned: 'You cannot access your account. Please contact the support team.',
  captchaFailed: 'CAPTCHA verification failed. Please try again.',
  verificationFailed: (reason: string) => `Verification failed: ${reason}`,
  captchaServiceError: (status: number) => `CAPTCHA service error (${status}). Please try again.`,
  captchaNetworkSignIn: 'Error during CAPTCHA verification. Please check connection.',
  captchaNetworkRegister: 'Error verifying CAPTCHA. Please check connection.',
  sessionDataMissing: 'Login successful but session/user data missing.',
  userStatusUnknown: 'Could not verify user status after login.',
  unexpectedSignIn: 'An unexpected error occurred. Please try again later.',
  emailOtpSendFailed: 'Failed to send verification email',
  sessionLost: 'Session details lost. Please log in again.',
  noVerifiedFactor: 'No verified authenticator app found for your account.',
  challengeFailed: 'Failed to create MFA challenge.',
  invalidTotpCode: 'Invalid verification code. Please try again.',
  mfaFailed: 'MFA verification failed.',
  invalidEmailCode: 'Invalid verification code',

  resetLinkFailed: 'Failed to send reset link. Please try again.',
  resetLinkSent: 'If an account exists for this email, a password reset link has been sent.',

  registrationFailed: 'An error occurred during registration.',
  unexpectedRegister: 'An unexpected error occurred. Please try again.',
  registrationSucceeded: 'Account created! We have sent you an email: please confirm your email address with the link in it, then sign in.',

  noResetLink: 'You must access this page via a password reset link.',
  invalidResetLink: 'Invalid or expired link, or not logged in for password update.',
  passwordUpdated: 'Your password has been updated successfully. You can now log in.',
  passwordUpdateFailed: 'Failed to update password. Please try again.',

  forcedUpdated: 'Password updated successfully! Redirecting...',
  forcedFlagNotCleared: 'Password updated, but failed to clear reset flag. Please contact support if issues persist.',

  emailConfirmed: 'Your email address has been confirmed. You can now sign in.',
  emailConfirmFailed: 'This confirmation link is invalid or has expired. Please sign in to get a new one, or register again.',
} as const;
