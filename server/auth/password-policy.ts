import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';
import { authErrors } from './errors.js';

/** The one password rule of every path that sets a password (sign-up, changes, resets, staff accounts). */
export const MIN_PASSWORD = 8;

/** The spec's texts (000 section 5, 001 section 5) and one for a common password. */
export const PASSWORD_RULE_TEXT = {
  short: 'Password must be at least 8 characters long.',
  digit: 'Password must contain at least one number.',
  common: 'This password is too common and easy to guess. Please choose a different one.',
} as const;

/**
 * zxcvbn's score from 0 to 4; below 3 (fewer than about 10^8 guesses) is refused: a common
 * password or word with leetspeak, a digit or year suffix or a keyboard pattern (`P@ssw0rd1`,
 * `Summer2026!`) scores 2 or less, a passphrase of unrelated words 4.
 */
export const MIN_PASSWORD_SCORE = 3;

/** Words an attacker tries first against this app: its own subject, counted as a dictionary of their own. */
const SITE_WORDS = ['bitcoin', 'btc', 'crypto', 'wallet', 'ledger', 'ethereum', 'coin', 'coins', 'blockchain', 'satoshi', 'hodl'];

/**
 * The estimator with zxcvbn-ts's common-passwords list, the English words and names, and the
 * keyboard layouts (checked offline; nothing about a password leaves the process).
 */
const estimator = new ZxcvbnFactory({
  dictionary: { ...commonDictionary, ...englishDictionary, site: SITE_WORDS },
  graphs: adjacencyGraphs,
});

/**
 * The first rule `password` breaks, as the text to show, or null when it passes. `userInputs`
 * (the account's address and name) count as words an attacker knows.
 */
export function passwordProblem(password: string, userInputs: readonly string[] = []): string | null {
  if (password.length < MIN_PASSWORD) return PASSWORD_RULE_TEXT.short;
  if (!/\d/.test(password)) return PASSWORD_RULE_TEXT.digit;
  // The estimator's cost grows with the length (about 20 ms at 60 characters); past 64 a password is long enough.
  const checked = password.slice(0, 64);
  const inputs = userInputs.flatMap((s) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter((s) => s.length >= 3);
  if (estimator.check(checked, inputs).score < MIN_PASSWORD_SCORE) return PASSWORD_RULE_TEXT.common;
  return null;
}

/** Throws the rule a new password breaks, on every path that sets one. */
export function assertPasswordAllowed(password: string, userInputs: readonly string[] = []): void {
  const problem = passwordProblem(password, userInputs);
  if (problem) throw authErrors.weakPassword(problem);
}
