import { dictionary } from '@zxcvbn-ts/language-common';
import { authErrors } from './errors.js';

/** The one password rule of every path that sets a password (sign-up, changes, resets, staff accounts). */
export const MIN_PASSWORD = 8;

/** The spec's texts (000 section 5, 001 section 5) and one for a common password. */
export const PASSWORD_RULE_TEXT = {
  short: 'Password must be at least 8 characters long.',
  digit: 'Password must contain at least one number.',
  common: 'This password is too common and easy to guess. Please choose a different one.',
} as const;

/** About 49,000 common and breached passwords (zxcvbn-ts's list), checked offline, without case. */
const COMMON = new Set(dictionary.passwords.map((p) => p.toLowerCase()));

/** The first rule `password` breaks, as the text to show, or null when it passes. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD) return PASSWORD_RULE_TEXT.short;
  if (!/\d/.test(password)) return PASSWORD_RULE_TEXT.digit;
  if (COMMON.has(password.toLowerCase()) || COMMON.has(password.trim().toLowerCase())) return PASSWORD_RULE_TEXT.common;
  return null;
}

/** Throws the rule a new password breaks, on every path that sets one. */
export function assertPasswordAllowed(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw authErrors.weakPassword(problem);
}
