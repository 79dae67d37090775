import type { AuthInfo } from '../../auth/guard.js';

/** What the user profile's route files share: the spec's texts, the limits of their fields, the actor of a staff action. */

/** An admin's reset of a customer's password: at least this long (spec 002 section 9). */
export const MIN_STAFF_RESET_PASSWORD = 6;

export const PROFILE_MESSAGES = {
  emptyPassword: 'New password cannot be empty.',
  shortPassword: 'Password must be at least 6 characters long.',
  missingAddress: 'Missing required information or address is empty.',
  missingTxFields: 'Please fill in all required fields (*).',
  mfaRoles: 'Access Denied: Only managers and admins can remove two-factor authentication.',
  mfaReason: 'Please give a reason for removing two-factor authentication.',
} as const;

/** The staff member as the actor of the events their action records. */
export const actorOf = (staff: AuthInfo) => ({ id: staff.userId, role: staff.role });
