import { describe, expect, it } from 'vitest';
import { PASSWORD_RULE_TEXT, passwordProblem } from './password-policy.js';

describe('the password rule (strength estimator)', () => {
  it.each(['P@ssw0rd1', 'bitcoin123', 'wallet123', 'Summer2026!', 'Pa$$w0rd2024', 'qwerty123', 'iloveyou1', 'Passw0rd!', 'l3dger2025'])(
    'refuses the common password with leetspeak, digits or a year %s',
    (password) => {
      expect(passwordProblem(password)).toBe(PASSWORD_RULE_TEXT.common);
    },
  );

  it('keeps the spec texts for a short password and one without a digit', () => {
    expect(passwordProblem('Ab1')).toBe(PASSWORD_RULE_TEXT.short);
    expect(passwordProblem('correct horse battery')).toBe(PASSWORD_RULE_TEXT.digit);
  });

  it('accepts unrelated words with a digit, and a long random string', () => {
    expect(passwordProblem('correct horse 1')).toBeNull();
    expect(passwordProblem('staff-own-pass-1')).toBeNull();
    expect(passwordProblem('x7#Kq9!vR2mZ')).toBeNull();
  });

  it("counts the account's own address and name as guessable words", () => {
    expect(passwordProblem('Quillonvarga!7')).toBeNull();
    expect(passwordProblem('Quillonvarga!7', ['quillonvarga@example.com', 'Quillonvarga'])).toBe(PASSWORD_RULE_TEXT.common);
  });
});
