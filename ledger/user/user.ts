import type { Decider } from '../decider.js';
import { decideUser } from './decide.js';
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences } from '../notifications/preferences.js';
import {
  userEventSchemas,
  type DocumentRef,
  type KycStatus,
  type MfaMethod,
  type Permissions,
  type Role,
  type UserEvent,
} from './events.js';

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
  return {
    exists: false,
    role: 'USER',
    emailConfirmed: false,
    requiresPasswordChange: false,
    mfaMethod: null,
    factors: new Map(),
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
      return {
        ...state,
        exists: true,
        role: event.data.role,
        emailConfirmed: event.data.emailConfirmed,
        requiresPasswordChange: event.data.requiresPasswordChange,
      };
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
  | {
      type: 'Register';
      email: string;
      fullName: string;
      role: Role;
      source: 'self' | 'operator' | 'demo' | 'staff';
      requiresPasswordChange: boolean;
      emailConfirmed: boolean;
    }
  | { type: 'ConfirmEmail' }
  | {
      type: 'RecordSignIn';
      sessionId: string;
      ipAddress: string | null;
      userAgent: string | null;
      method: string;
      aal: 'aal1' | 'aal2';
    }
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

export { decideUser, MFA_EMAIL_ON, MFA_TOTP_ON, NO_MFA_TO_REMOVE, UserError } from './decide.js';

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
