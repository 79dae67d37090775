import type { AuthInfo } from '../auth/guard.js';
import { HttpError } from '../errors.js';

export const STAFF_ROLES = ['WORKER', 'MANAGER', 'ADMIN'] as const;

/**
 * May this staff member act on this user's profile? ADMIN: every user. WORKER and MANAGER
 * reach users through ownership (a worker's claimed users; a manager's workers' users),
 * which arrives with claiming; until then they reach none. Denied by default.
 */
export async function assertCanManageUser(staff: AuthInfo, _targetUserId: string): Promise<void> {
  if (!(STAFF_ROLES as readonly string[]).includes(staff.role)) {
    throw new HttpError(403, 'Access Denied: Your role cannot view user profiles.');
  }
  if (staff.role === 'ADMIN') return;
  throw new HttpError(403, 'Access Denied: You do not have permission to view this profile.');
}
