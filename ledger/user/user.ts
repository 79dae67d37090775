import type { Decider } from '../decider.js';
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences } from '../notifications/preferences.js';
import { userEventSchemas, type DocumentRef, type KycStatus, type MfaMethod, type Permissions, type Role, type UserEvent } from './events.js';

export interface UserState {
  exists: boolean;
  role: Role;
  emailConfirmed: boolean;
  requiresPasswordChange: boolean;
  mfaMethod: MfaMethod;
  /** factor id -> verified? */
  factors: Map<string, boolean>;
  bannedUntil: string | null;
  /** The worker who owns this customer (claimed), if any. */
  claimedBy: string | null;
  /** For a worker: the manager they report to. */
  managerId: string | null;
  kycStatus: KycStatus;
  permissions: Permissions;
  addresses: Record<string, string>;
  dashboardNote: string | null;
  notificationPreferences: NotificationPreferences;
}

export const DEFAULT_PERMISSIONS: Permissions = {
  canBuy: true,
  canSell: true,
  canSwap: true,
  canStake: true,
  canSend: true,
  buyDisabledNote: null,
  sellDisabledNote: null,
  swapDisabledNote: null,
  stakeDisabledNote: null,
  sendDisabledNote: null,
};

export function initialUserState(): UserState {
  return { exists: false, role: 'USER', emailConfirmed: false, requiresPasswordChange: false, mfaMethod: null, factors: new Map(),
    bannedUntil: null,
    claimedBy: null,
    managerId: null,
    kycStatus: 'not_started',
    permissions: DEFAULT_PERMISSIONS,
    addresses: {},
    dashboardNote: null,
    notificationPreferences: DEFAULT_NOTIFICATION_PREFERENCES,
  };
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
    case 'user.claimed':
      return { ...state, claimedBy: event.data.workerId };
    case 'user.worker-assigned':
      return { ...state, managerId: event.data.managerId };
    case 'user.permissions-updated':
      return { ...state, permissions: event.data };
    case 'user.wallet-address-set':
      return { ...state, addresses: { ...state.addresses, [event.data.assetId]: event.data.address } };
    case 'user.dashboard-note-set':
      return { ...state, dashboardNote: event.data.note };
    case 'user.notification-preferences-set':
      return { ...state, notificationPreferences: event.data };
    case 'user.kyc-submitted':
      return { ...state, kycStatus: 'pending' };
    case 'user.kyc-approved':
      return { ...state, kycStatus: 'verified' };
    case 'user.kyc-rejected':
      return { ...state, kycStatus: 'rejected' };
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
  | { type: 'IssueRecoveryCodes'; count: number }
  | { type: 'UseRecoveryCode'; left: number }
  | { type: 'RemoveMfaByStaff'; reason: string }
  | { type: 'Ban'; until: string }
  | { type: 'Unban' }
  | { type: 'Claim'; workerId: string }
  | { type: 'AssignToManager'; managerId: string }
  | { type: 'UpdatePermissions'; permissions: Permissions }
  | { type: 'SetWalletAddress'; assetId: string; address: string }
  | { type: 'SetDashboardNote'; note: string | null }
  | { type: 'SetNotificationPreferences'; preferences: NotificationPreferences }
  | {
      type: 'SubmitKyc';
      details: { firstName: string; lastName: string; dob: string; country: string; city: string; postalCode: string; fullAddress: string };
      identityDoc: DocumentRef;
      residenceDoc: DocumentRef;
    }
  | { type: 'ApproveKyc' }
  | { type: 'RejectKyc'; reason: string | null }
  | { type: 'RecordKycDocumentView'; document: 'identity' | 'residence'; blobId: string };

export class UserError extends Error {
  constructor(readonly code: 'not_found' | 'exists' | 'invalid', message: string) {
    super(message);
    this.name = 'UserError';
  }
}

/** Spec 001 section 4, one second factor at a time: the refusals, also the API's (server/auth/errors.ts). */
export const MFA_EMAIL_ON = 'Email authentication is on. Turn it off before setting up an authenticator app.';
export const MFA_TOTP_ON = 'An authenticator app is set up. Remove it before turning on email authentication.';
export const NO_MFA_TO_REMOVE = 'This customer has no two-factor authentication to remove.';

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
    // One second factor at a time (spec 001 section 4): no authenticator while e-mail codes are on...
    case 'EnrolFactor':
      if (state.mfaMethod === 'email') throw new UserError('invalid', MFA_EMAIL_ON);
      return [{ type: 'user.mfa-factor-enrolled', data: { factorId: command.factorId, factorType: 'totp' } }];
    case 'VerifyFactor':
      if (!state.factors.has(command.factorId)) throw new UserError('not_found', 'Factor not found.');
      if (state.factors.get(command.factorId)) return [];
      if (state.mfaMethod === 'email') throw new UserError('invalid', MFA_EMAIL_ON);
      return [{ type: 'user.mfa-factor-verified', data: { factorId: command.factorId } }];
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
      // ...and no e-mail codes while a verified authenticator exists.
      if (command.method === 'email' && [...state.factors.values()].some(Boolean)) throw new UserError('invalid', MFA_TOTP_ON);
      return state.mfaMethod === command.method ? [] : [{ type: 'user.mfa-method-changed', data: { method: command.method } }];
    case 'IssueRecoveryCodes':
      if (![...state.factors.values()].some(Boolean)) throw new UserError('invalid', 'No verified authenticator app found for your account.');
      return [{ type: 'user.mfa-recovery-codes-issued', data: { count: command.count } }];
    case 'UseRecoveryCode':
      return [{ type: 'user.mfa-recovery-code-used', data: { left: command.left } }];
    case 'RemoveMfaByStaff': {
      // Every factor and the active method go, so that the owner can sign in with the password alone.
      if (state.factors.size === 0 && state.mfaMethod === null) throw new UserError('invalid', NO_MFA_TO_REMOVE);
      const events: UserEvent[] = [...state.factors.keys()].map((factorId) => ({ type: 'user.mfa-factor-removed' as const, data: { factorId } }));
      if (state.mfaMethod !== null) events.push({ type: 'user.mfa-method-changed', data: { method: null } });
      events.push({ type: 'user.mfa-removed-by-staff', data: { reason: command.reason, previousMethod: state.mfaMethod } });
      return events;
    }
    case 'Ban':
      return [{ type: 'user.banned', data: { until: command.until } }];
    case 'Unban':
      return state.bannedUntil === null ? [] : [{ type: 'user.unbanned', data: {} }];
    case 'Claim':
      if (state.role !== 'USER') throw new UserError('invalid', 'Only customers can be claimed.');
      if (state.claimedBy === command.workerId) return [];
      if (state.claimedBy !== null) throw new UserError('exists', 'Cannot claim user: User may already be assigned or is not claimable.');
      return [{ type: 'user.claimed', data: { workerId: command.workerId } }];
    case 'AssignToManager':
      if (state.role !== 'WORKER') throw new UserError('invalid', 'Only workers report to a manager.');
      return state.managerId === command.managerId ? [] : [{ type: 'user.worker-assigned', data: { managerId: command.managerId } }];
    case 'UpdatePermissions':
      return [{ type: 'user.permissions-updated', data: command.permissions }];
    case 'SetWalletAddress':
      return state.addresses[command.assetId] === command.address
        ? []
        : [{ type: 'user.wallet-address-set', data: { assetId: command.assetId, address: command.address } }];
    case 'SetDashboardNote':
      return state.dashboardNote === command.note ? [] : [{ type: 'user.dashboard-note-set', data: { note: command.note } }];
    case 'SetNotificationPreferences': {
      // The choices are a customer's (staff get no customer notifications); unchanged choices record nothing.
      if (state.role !== 'USER') throw new UserError('invalid', 'Notification preferences are for customer accounts.');
      const now = state.notificationPreferences;
      const next = command.preferences;
      const same = now.transactionsInApp === next.transactionsInApp && now.accountChangesEmail === next.accountChangesEmail && now.accountChangesInApp === next.accountChangesInApp;
      return same ? [] : [{ type: 'user.notification-preferences-set', data: { ...next } }];
    }
    case 'SubmitKyc':
      if (state.kycStatus === 'pending') throw new UserError('exists', 'Your verification is already under review.');
      if (state.kycStatus === 'verified') throw new UserError('exists', 'Your identity is already verified.');
      return [{ type: 'user.kyc-submitted', data: { ...command.details, identityDoc: command.identityDoc, residenceDoc: command.residenceDoc } }];
    case 'ApproveKyc':
      return state.kycStatus === 'verified' ? [] : [{ type: 'user.kyc-approved', data: {} }];
    case 'RejectKyc':
      if (state.kycStatus !== 'pending') throw new UserError('invalid', 'Only a pending verification can be rejected.');
      return [{ type: 'user.kyc-rejected', data: { reason: command.reason } }];
    case 'RecordKycDocumentView':
      return [{ type: 'user.kyc-document-viewed', data: { document: command.document, blobId: command.blobId } }];
  }
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  category: 'user',
  initialState: initialUserState,
  evolve: evolveUser,
  decide: decideUser,
  schemas: userEventSchemas,
};

/**
 * Why a user must choose a new password (shown on the forced change screen): 'reset' when
 * the password they have was last set by a staff reset, else 'new_account' (while the flag is
 * set, that is the password their account was made with: a staff member's first sign-in).
 */
export function passwordChangeReason(events: readonly { type: string; data: unknown }[]): 'reset' | 'new_account' {
  let reason: 'reset' | 'new_account' = 'new_account';
  for (const e of events) {
    if (e.type === 'user.password-changed') reason = (e.data as { method?: string }).method === 'staff-reset' ? 'reset' : 'new_account';
  }
  return reason;
}
