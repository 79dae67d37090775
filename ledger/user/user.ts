import type { Decider } from '../decider.js';
import { userEventSchemas, type MfaMethod, type Role, type UserEvent } from './events.js';

export interface UserState {
  exists: boolean;
  role: Role;
  emailConfirmed: boolean;
  requiresPasswordChange: boolean;
  mfaMethod: MfaMethod;
  /** factor id -> verified? */
  factors: Map<string, boolean>;
  bannedUntil: string | null;
}

export function initialUserState(): UserState {
  return { exists: false, role: 'USER', emailConfirmed: false, requiresPasswordChange: false, mfaMethod: null, factors: new Map(), bannedUntil: null };
}

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'user.registered':
      return { ...state, exists: true, role: event.data.role, emailConfirmed: event.data.emailConfirmed, requiresPasswordChange: event.data.requiresPasswordChange };
    case 'user.email-confirmed':
      return { ...state, emailConfirmed: true };
    case 'user.password-change-required':
      return { ...state, requiresPasswordChange: event.data.required };
    case 'user.mfa-factor-enrolled':
      return { ...state, factors: new Map(state.factors).set(event.data.factorId, false) };
    case 'user.mfa-factor-verified':
      return { ...state, factors: new Map(state.factors).set(event.data.factorId, true) };
    case 'user.mfa-factor-removed': {
      const factors = new Map(state.factors);
      factors.delete(event.data.factorId);
      return { ...state, factors };
    }
    case 'user.mfa-method-changed':
      return { ...state, mfaMethod: event.data.method };
    case 'user.banned':
      return { ...state, bannedUntil: event.data.until };
    case 'user.unbanned':
      return { ...state, bannedUntil: null };
    default:
      return state;
  }
}

export type UserCommand =
  | { type: 'Register'; email: string; fullName: string; role: Role; source: 'self' | 'operator' | 'demo' | 'staff'; requiresPasswordChange: boolean; emailConfirmed: boolean }
  | { type: 'ConfirmEmail' }
  | { type: 'RecordSignIn'; sessionId: string; ipAddress: string | null; userAgent: string | null }
  | { type: 'RecordPasswordChange'; method: 'self' | 'recovery' | 'forced' | 'staff-reset' }
  | { type: 'RequirePasswordChange' }
  | { type: 'EnrolFactor'; factorId: string }
  | { type: 'VerifyFactor'; factorId: string }
  | { type: 'RemoveFactor'; factorId: string }
  | { type: 'SetMfaMethod'; method: MfaMethod }
  | { type: 'Ban'; until: string }
  | { type: 'Unban' };

export class UserError extends Error {
  constructor(readonly code: 'not_found' | 'exists' | 'invalid', message: string) {
    super(message);
    this.name = 'UserError';
  }
}

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  if (command.type === 'Register') {
    if (state.exists) throw new UserError('exists', 'This account already exists.');
    const events: UserEvent[] = [
      {
        type: 'user.registered',
        data: {
          email: command.email,
          fullName: command.fullName,
          role: command.role,
          source: command.source,
          requiresPasswordChange: command.requiresPasswordChange,
          emailConfirmed: command.emailConfirmed,
        },
      },
    ];
    if (command.role === 'USER') events.push({ type: 'user.profile-created', data: { canBuy: true, canSell: true } });
    return events;
  }
  if (!state.exists) throw new UserError('not_found', 'User not found.');
  switch (command.type) {
    case 'ConfirmEmail':
      return state.emailConfirmed ? [] : [{ type: 'user.email-confirmed', data: {} }];
    case 'RecordSignIn':
      return [{ type: 'user.signed-in', data: { sessionId: command.sessionId, ipAddress: command.ipAddress, userAgent: command.userAgent } }];
    case 'RecordPasswordChange': {
      const events: UserEvent[] = [{ type: 'user.password-changed', data: { method: command.method } }];
      // A new password of the user's own choosing clears the flag a staff reset set.
      if (state.requiresPasswordChange && command.method !== 'staff-reset') events.push({ type: 'user.password-change-required', data: { required: false } });
      return events;
    }
    case 'RequirePasswordChange':
      return state.requiresPasswordChange ? [] : [{ type: 'user.password-change-required', data: { required: true } }];
    case 'EnrolFactor':
      return [{ type: 'user.mfa-factor-enrolled', data: { factorId: command.factorId, factorType: 'totp' } }];
    case 'VerifyFactor':
      if (!state.factors.has(command.factorId)) throw new UserError('not_found', 'Factor not found.');
      return state.factors.get(command.factorId) ? [] : [{ type: 'user.mfa-factor-verified', data: { factorId: command.factorId } }];
    case 'RemoveFactor': {
      if (!state.factors.has(command.factorId)) return [];
      const events: UserEvent[] = [{ type: 'user.mfa-factor-removed', data: { factorId: command.factorId } }];
      const verifiedLeft = [...state.factors].some(([id, verified]) => verified && id !== command.factorId);
      if (state.mfaMethod === 'totp' && !verifiedLeft) events.push({ type: 'user.mfa-method-changed', data: { method: null } });
      return events;
    }
    case 'SetMfaMethod':
      if (command.method === 'totp' && ![...state.factors.values()].some(Boolean)) {
        throw new UserError('invalid', 'No verified authenticator app found for your account.');
      }
      return state.mfaMethod === command.method ? [] : [{ type: 'user.mfa-method-changed', data: { method: command.method } }];
    case 'Ban':
      return [{ type: 'user.banned', data: { until: command.until } }];
    case 'Unban':
      return state.bannedUntil === null ? [] : [{ type: 'user.unbanned', data: {} }];
  }
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  category: 'user',
  initialState: initialUserState,
  evolve: evolveUser,
  decide: decideUser,
  schemas: userEventSchemas,
};
