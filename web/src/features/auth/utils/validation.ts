import { isEmailShape } from '@/lib/email.js';
import { MESSAGES } from './messages.js';

export const PASSWORD_MIN_LENGTH = 8;

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export function hasErrors<K extends string>(errors: FieldErrors<K>): boolean {
  return Object.values(errors).some(Boolean);
}

export function emailError(email: string): string | undefined {
  if (!email.trim()) return MESSAGES.emailRequired;
  if (!isEmailShape(email)) return MESSAGES.emailInvalid;
  return undefined;
}

export function validateSignIn(email: string, password: string): FieldErrors<'email' | 'password'> {
  return {
    email: emailError(email),
    password: password ? undefined : MESSAGES.passwordRequired,
  };
}

export type RegistrationForm = {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
};

export function validateRegistration(form: RegistrationForm): FieldErrors<keyof RegistrationForm> {
  return {
    fullName: form.fullName.trim() ? undefined : MESSAGES.fullNameRequired,
    email: emailError(form.email),
    password: !form.password
      ? MESSAGES.passwordRequired
      : form.password.length < PASSWORD_MIN_LENGTH
        ? MESSAGES.passwordTooShort
        : undefined,
    confirmPassword: !form.confirmPassword
      ? MESSAGES.confirmPasswordRequired
      : form.confirmPassword !== form.password
        ? MESSAGES.passwordsDoNotMatch
        : undefined,
  };
}

/** The reset-link page: one message per field. */
export function validateNewPassword(password: string, confirm: string): FieldErrors<'password' | 'confirm'> {
  return {
    password: !password ? MESSAGES.newPasswordRequired : password.length < PASSWORD_MIN_LENGTH ? MESSAGES.passwordTooShort : undefined,
    confirm: !confirm ? MESSAGES.confirmNewPasswordRequired : confirm !== password ? MESSAGES.passwordsDoNotMatch : undefined,
  };
}

/** The forced change page: one message for the form, the first rule that fails. */
export function forcedPasswordError(password: string, confirm: string): string | undefined {
  if (!password || !confirm) return MESSAGES.forcedBothRequired;
  if (password.length < PASSWORD_MIN_LENGTH) return MESSAGES.passwordTooShort;
  if (password !== confirm) return MESSAGES.passwordsDoNotMatch;
  return undefined;
}
