import { unknownCommand } from '../decider.js';
import type { UserEvent } from './events.js';
import type { UserCommand, UserState } from './user.js';

/**
 * The user aggregate's decisions: one small function per command, and `decideUser`, whose
 * switch names them all (a command without a case does not compile).
 */

/** Spec 001 section 4, one second factor at a time: the refusals, also the API's (server/auth/errors.ts). */
export const MFA_EMAIL_ON = 'Email authentication is on. Turn it off before setting up an authenticator app.';
export const MFA_TOTP_ON = 'An authenticator app is set up. Remove it before turning on email authentication.';
export const NO_MFA_TO_REMOVE = 'This customer has no two-factor authentication to remove.';
const NO_VERIFIED_AUTHENTICATOR = 'No verified authenticator app found for your account.';

export class UserError extends Error {
  constructor(
    readonly code: 'not_found' | 'exists' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

type Command<T extends UserCommand['type']> = Extract<UserCommand, { type: T }>;

const hasVerifiedFactor = (state: UserState) => [...state.factors.values()].some(Boolean);

function register(command: Command<'Register'>, state: UserState): UserEvent[] {
  if (state.exists) throw new UserError('exists', 'This account already exists.');
  const { email, fullName, role, source, requiresPasswordChange, emailConfirmed } = command;
  const events: UserEvent[] = [
    { type: 'user.registered', data: { email, fullName, role, source, requiresPasswordChange, emailConfirmed } },
  ];
  if (role === 'USER') events.push({ type: 'user.profile-created', data: { canBuy: true, canSell: true } });
  return events;
}

function recordPasswordChange(command: Command<'RecordPasswordChange'>, state: UserState): UserEvent[] {
  const events: UserEvent[] = [{ type: 'user.password-changed', data: { method: command.method } }];
  // A new password of the user's own choosing clears the flag a staff reset set.
  if (state.requiresPasswordChange && command.method !== 'staff-reset')
    events.push({ type: 'user.password-change-required', data: { required: false } });
  return events;
}

/** One second factor at a time (spec 001 section 4): no authenticator while e-mail codes are on... */
function enrolFactor(command: Command<'EnrolFactor'>, state: UserState): UserEvent[] {
  if (state.mfaMethod === 'email') throw new UserError('invalid', MFA_EMAIL_ON);
  return [{ type: 'user.mfa-factor-enrolled', data: { factorId: command.factorId, factorType: 'totp' } }];
}

function verifyFactor(command: Command<'VerifyFactor'>, state: UserState): UserEvent[] {
  if (!state.factors.has(command.factorId)) throw new UserError('not_found', 'Factor not found.');
  if (state.factors.get(command.factorId)) return [];
  if (state.mfaMethod === 'email') throw new UserError('invalid', MFA_EMAIL_ON);
  return [{ type: 'user.mfa-factor-verified', data: { factorId: command.factorId } }];
}

function removeFactor(command: Command<'RemoveFactor'>, state: UserState): UserEvent[] {
  if (!state.factors.has(command.factorId)) return [];
  const events: UserEvent[] = [{ type: 'user.mfa-factor-removed', data: { factorId: command.factorId } }];
  const verifiedLeft = [...state.factors].some(([id, verified]) => verified && id !== command.factorId);
  if (state.mfaMethod === 'totp' && !verifiedLeft) events.push({ type: 'user.mfa-method-changed', data: { method: null } });
  return events;
}

/** ...and no e-mail codes while a verified authenticator exists. */
function setMfaMethod(command: Command<'SetMfaMethod'>, state: UserState): UserEvent[] {
  if (command.method === 'totp' && !hasVerifiedFactor(state)) throw new UserError('invalid', NO_VERIFIED_AUTHENTICATOR);
  if (command.method === 'email' && hasVerifiedFactor(state)) throw new UserError('invalid', MFA_TOTP_ON);
  return state.mfaMethod === command.method ? [] : [{ type: 'user.mfa-method-changed', data: { method: command.method } }];
}

function issueRecoveryCodes(command: Command<'IssueRecoveryCodes'>, state: UserState): UserEvent[] {
  if (!hasVerifiedFactor(state)) throw new UserError('invalid', NO_VERIFIED_AUTHENTICATOR);
  return [{ type: 'user.mfa-recovery-codes-issued', data: { count: command.count } }];
}

/** Every factor and the active method go, so that the owner can sign in with the password alone. */
function removeMfaByStaff(command: Command<'RemoveMfaByStaff'>, state: UserState): UserEvent[] {
  if (state.factors.size === 0 && state.mfaMethod === null) throw new UserError('invalid', NO_MFA_TO_REMOVE);
  const events: UserEvent[] = [...state.factors.keys()].map((factorId) => ({
    type: 'user.mfa-factor-removed' as const,
    data: { factorId },
  }));
  if (state.mfaMethod !== null) events.push({ type: 'user.mfa-method-changed', data: { method: null } });
  events.push({ type: 'user.mfa-removed-by-staff', data: { reason: command.reason, previousMethod: state.mfaMethod } });
  return events;
}

function claim(command: Command<'Claim'>, state: UserState): UserEvent[] {
  if (state.role !== 'USER') throw new UserError('invalid', 'Only customers can be claimed.');
  if (state.claimedBy === command.workerId) return [];
  if (state.claimedBy !== null) throw new UserError('exists', 'Cannot claim user: User may already be assigned or is not claimable.');
  return [{ type: 'user.claimed', data: { workerId: command.workerId } }];
}

function assignToManager(command: Command<'AssignToManager'>, state: UserState): UserEvent[] {
  if (state.role !== 'WORKER') throw new UserError('invalid', 'Only workers report to a manager.');
  return state.managerId === command.managerId ? [] : [{ type: 'user.worker-assigned', data: { managerId: command.managerId } }];
}

function setWalletAddress(command: Command<'SetWalletAddress'>, state: UserState): UserEvent[] {
  if (state.addresses[command.assetId] === command.address) return [];
  return [{ type: 'user.wallet-address-set', data: { assetId: command.assetId, address: command.address } }];
}

/** The choices are a customer's (staff get no customer notifications); unchanged choices record nothing. */
function setNotificationPreferences(command: Command<'SetNotificationPreferences'>, state: UserState): UserEvent[] {
  if (state.role !== 'USER') throw new UserError('invalid', 'Notification preferences are for customer accounts.');
  const now = state.notificationPreferences;
  const next = command.preferences;
  const same =
    now.transactionsInApp === next.transactionsInApp &&
    now.transactionsEmail === next.transactionsEmail &&
    now.accountChangesEmail === next.accountChangesEmail &&
    now.accountChangesInApp === next.accountChangesInApp;
  return same ? [] : [{ type: 'user.notification-preferences-set', data: { ...next } }];
}

function submitKyc(command: Command<'SubmitKyc'>, state: UserState): UserEvent[] {
  if (state.kycStatus === 'pending') throw new UserError('exists', 'Your verification is already under review.');
  if (state.kycStatus === 'verified') throw new UserError('exists', 'Your identity is already verified.');
  return [
    { type: 'user.kyc-submitted', data: { ...command.details, identityDoc: command.identityDoc, residenceDoc: command.residenceDoc } },
  ];
}

function rejectKyc(command: Command<'RejectKyc'>, state: UserState): UserEvent[] {
  if (state.kycStatus !== 'pending') throw new UserError('invalid', 'Only a pending verification can be rejected.');
  return [{ type: 'user.kyc-rejected', data: { reason: command.reason } }];
}

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  if (command.type === 'Register') return register(command, state);
  if (!state.exists) throw new UserError('not_found', 'User not found.');
  switch (command.type) {
    case 'ConfirmEmail':
      return state.emailConfirmed ? [] : [{ type: 'user.email-confirmed', data: {} }];
    case 'RecordSignIn':
      return [
        {
          type: 'user.signed-in',
          data: {
            sessionId: command.sessionId,
            ipAddress: command.ipAddress,
            userAgent: command.userAgent,
            method: command.method,
            aal: command.aal,
          },
        },
      ];
    case 'RecordPasswordChange':
      return recordPasswordChange(command, state);
    case 'RequirePasswordChange':
      return state.requiresPasswordChange ? [] : [{ type: 'user.password-change-required', data: { required: true } }];
    case 'EnrolFactor':
      return enrolFactor(command, state);
    case 'VerifyFactor':
      return verifyFactor(command, state);
    case 'RemoveFactor':
      return removeFactor(command, state);
    case 'SetMfaMethod':
      return setMfaMethod(command, state);
    case 'IssueRecoveryCodes':
      return issueRecoveryCodes(command, state);
    case 'UseRecoveryCode':
      return [{ type: 'user.mfa-recovery-code-used', data: { left: command.left } }];
    case 'RemoveMfaByStaff':
      return removeMfaByStaff(command, state);
    case 'Ban':
      return [{ type: 'user.banned', data: { until: command.until } }];
    case 'Unban':
      return state.bannedUntil === null ? [] : [{ type: 'user.unbanned', data: {} }];
    case 'Claim':
      return claim(command, state);
    case 'AssignToManager':
      return assignToManager(command, state);
    case 'UpdatePermissions':
      return [{ type: 'user.permissions-updated', data: command.permissions }];
    case 'SetWalletAddress':
      return setWalletAddress(command, state);
    case 'SetDashboardNote':
      return state.dashboardNote === command.note ? [] : [{ type: 'user.dashboard-note-set', data: { note: command.note } }];
    case 'SetNotificationPreferences':
      return setNotificationPreferences(command, state);
    case 'SubmitKyc':
      return submitKyc(command, state);
    case 'ApproveKyc':
      return state.kycStatus === 'verified' ? [] : [{ type: 'user.kyc-approved', data: {} }];
    case 'RejectKyc':
      return rejectKyc(command, state);
    case 'RecordKycDocumentView':
      return [{ type: 'user.kyc-document-viewed', data: { document: command.document, blobId: command.blobId } }];
    default:
      return unknownCommand(command);
  }
}
