import { z } from 'zod';

/** A person's account: `user-{userId}`. Facts only; no password, code or secret ever appears here. */
export const userStream = (userId: string) => `user-${userId}`;
export const USER_STREAM_PREFIX = 'user-';

export const Role = z.enum(['USER', 'WORKER', 'MANAGER', 'ADMIN']);
export type Role = z.infer<typeof Role>;
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
    schema: z.object({ sessionId: z.uuid(), ipAddress: z.string().nullable(), userAgent: z.string().nullable() }),
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
  'user.banned': { version: 1, schema: z.object({ until: z.iso.datetime({ offset: true }) }) },
  'user.unbanned': { version: 1, schema: z.object({}) },
} as const;

type Schemas = typeof userEventSchemas;
export type UserEventType = keyof Schemas;
export type UserEvent = { [T in UserEventType]: { type: T; data: z.infer<Schemas[T]['schema']> } }[UserEventType];

export function isUserEventType(type: string): type is UserEventType {
  return Object.prototype.hasOwnProperty.call(userEventSchemas, type);
}
