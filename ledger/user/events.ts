import { z } from 'zod';
import { NotificationPreferences } from '../notifications/preferences.js';

/** A person's account: `user-{userId}`. Facts only; no password, code or secret ever appears here. */
export const userStream = (userId: string) => `user-${userId}`;
export const USER_STREAM_PREFIX = 'user-';

export const Role = z.enum(['USER', 'WORKER', 'MANAGER', 'ADMIN']);
export type Role = z.infer<typeof Role>;
export const KycStatus = z.enum(['not_started', 'pending', 'verified', 'rejected']);
export type KycStatus = z.infer<typeof KycStatus>;

/** A stored document: the bytes live in the blob store; the event keeps the reference and its digest. */
export const DocumentRef = z.object({
  blobId: z.uuid(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string(),
});
export type DocumentRef = z.infer<typeof DocumentRef>;

export const Permissions = z.object({
  canBuy: z.boolean(),
  canSell: z.boolean(),
  canSwap: z.boolean(),
  canStake: z.boolean(),
  canSend: z.boolean(),
  buyDisabledNote: z.string().nullable(),
  sellDisabledNote: z.string().nullable(),
  swapDisabledNote: z.string().nullable(),
  stakeDisabledNote: z.string().nullable(),
  sendDisabledNote: z.string().nullable(),
});
export type Permissions = z.infer<typeof Permissions>;

export const MfaMethod = z.enum(['totp', 'email']).nullable();
export type MfaMethod = z.infer<typeof MfaMethod>;

export const userEventSchemas = {
  'user.registered': {
    version: 1,
    schema: z.object({
      email: z.string(),
      fullName: z.string(),
      role: Role,
      /** 'self' (sign-up), 'operator' (CLI), 'demo' (first start), 'staff' (created by a manager). */
      source: z.enum(['self', 'operator', 'demo', 'staff']),
      requiresPasswordChange: z.boolean(),
      emailConfirmed: z.boolean(),
    }),
  },
  /** The customer's profile record with its starting permissions (spec 000 section 6). */
  'user.profile-created': { version: 1, schema: z.object({ canBuy: z.boolean(), canSell: z.boolean() }) },
  'user.email-confirmed': { version: 1, schema: z.object({}) },
  'user.signed-in': {
    version: 1,
    schema: z.object({
      sessionId: z.uuid(),
      ipAddress: z.string().nullable(),
      userAgent: z.string().nullable(),
      /** How the sign-in was completed ('password', 'totp', 'otp', 'recovery_code') and the level reached; absent in events before issue 45. */
      method: z.string().optional(),
      aal: z.enum(['aal1', 'aal2']).optional(),
    }),
  },
  'user.password-changed': {
    version: 1,
    schema: z.object({ method: z.enum(['self', 'recovery', 'forced', 'staff-reset']) }),
  },
  'user.password-change-required': { version: 1, schema: z.object({ required: z.boolean() }) },
  'user.mfa-factor-enrolled': { version: 1, schema: z.object({ factorId: z.uuid(), factorType: z.literal('totp') }) },
  'user.mfa-factor-verified': { version: 1, schema: z.object({ factorId: z.uuid() }) },
  'user.mfa-factor-removed': { version: 1, schema: z.object({ factorId: z.uuid() }) },
  'user.mfa-method-changed': { version: 1, schema: z.object({ method: MfaMethod }) },
  /** Ten new one-time recovery codes replaced any earlier ones (the codes themselves are never in the log). */
  'user.mfa-recovery-codes-issued': { version: 1, schema: z.object({ count: z.number().int().positive() }) },
  /** A recovery code stood in for the authenticator at the second step; `left` unspent remain. */
  'user.mfa-recovery-code-used': { version: 1, schema: z.object({ left: z.number().int().nonnegative() }) },
  /** A manager or admin removed the customer's second factor (the factors' removals precede it); actor the staff member. */
  'user.mfa-removed-by-staff': { version: 1, schema: z.object({ reason: z.string(), previousMethod: MfaMethod }) },
  'user.banned': { version: 1, schema: z.object({ until: z.iso.datetime({ offset: true }) }) },
  'user.unbanned': { version: 1, schema: z.object({}) },
  /** A worker took this customer on (spec 002: claiming); the customer's stream, actor the worker. */
  'user.claimed': { version: 1, schema: z.object({ workerId: z.uuid() }) },
  /** A worker account now reports to this manager; the worker's stream. */
  'user.worker-assigned': { version: 1, schema: z.object({ managerId: z.uuid() }) },
  /** The five feature permissions with their notes, set together by staff. */
  'user.permissions-updated': { version: 1, schema: Permissions },
  /** The customer's deposit address for one asset, set by staff. */
  'user.wallet-address-set': { version: 1, schema: z.object({ assetId: z.string(), address: z.string() }) },
  /** The note shown on the customer's overview; null clears it. */
  'user.dashboard-note-set': { version: 1, schema: z.object({ note: z.string().nullable() }) },
  /**
   * The customer's choices of the notifications they get (ledger/notifications/preferences.ts), all
   * at once. Version 2 added `transactionsEmail`; a version 1 event reads it as off (upcast.ts).
   */
  'user.notification-preferences-set': { version: 2, schema: NotificationPreferences },
  'user.kyc-submitted': {
    version: 1,
    schema: z.object({
      firstName: z.string(),
      lastName: z.string(),
      dob: z.string(),
      country: z.string(),
      city: z.string(),
      postalCode: z.string(),
      fullAddress: z.string(),
      identityDoc: DocumentRef,
      residenceDoc: DocumentRef,
    }),
  },
  'user.kyc-approved': { version: 1, schema: z.object({}) },
  'user.kyc-rejected': { version: 1, schema: z.object({ reason: z.string().nullable() }) },
  /** A staff member opened one of the customer's KYC documents (who and when are the event's actor and time). */
  'user.kyc-document-viewed': { version: 1, schema: z.object({ document: z.enum(['identity', 'residence']), blobId: z.uuid() }) },
} as const;

type Schemas = typeof userEventSchemas;
export type UserEventType = keyof Schemas;
export type UserEvent = { [T in UserEventType]: { type: T; data: z.infer<Schemas[T]['schema']> } }[UserEventType];

export function isUserEventType(type: string): type is UserEventType {
  return Object.prototype.hasOwnProperty.call(userEventSchemas, type);
}
