import crypto from 'node:crypto';

/** Recovery codes made at an authenticator's enrolment. */
export const RECOVERY_CODE_COUNT = 10;
/** Lower-case letters and digits without look-alikes (no i, l, o, 0, 1): 31 symbols, 10 per code, about 49 bits. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes shaped `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  const one = () => Array.from({ length: 10 }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const c = one();
    return `${c.slice(0, 5)}-${c.slice(5)}`;
  });
}

/** A code as typed (any case, with or without its dash or spaces) in the form its digest is taken of. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** Whether `code` looks like a recovery code rather than an authenticator's six digits. */
export function isRecoveryCodeShape(code: string): boolean {
  return /^[a-z0-9]{10}$/.test(normaliseRecoveryCode(code)) && !/^\d+$/.test(code);
}
