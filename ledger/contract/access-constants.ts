/*
 * The access contract's names (access.ts re-exports them), in a module without zod: the sign-in
 * screen reads them and downloads no zod (docs/decisions.md, "The client's data cache").
 */

export const ROLES = ['USER', 'WORKER', 'MANAGER', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];

export const MFA_METHODS = ['totp', 'email'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

/** Why a password change is asked for: a staff reset, or a new account's first sign-in. */
export const PASSWORD_CHANGE_REASONS = ['reset', 'new_account'] as const;
