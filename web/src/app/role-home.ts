import type { Role } from '../lib/auth-types.js';

/** Staff roles, each with a dashboard of its own. */
const STAFF_HOME = { WORKER: '/dashboard/worker', MANAGER: '/dashboard/manager', ADMIN: '/dashboard/admin' } as const;

/** Where a role belongs: a staff member's own dashboard, a customer's overview. */
export function homeOf(role: Role | ''): string {
  return role === 'WORKER' || role === 'MANAGER' || role === 'ADMIN' ? STAFF_HOME[role] : '/dashboard/overview';
}

/**
 * Which roles may open a staff area of the client (the server decides every call; this only
 * keeps a screen the role cannot use from rendering): each staff dashboard is its own role's,
 * a customer's profile is for every staff role.
 */
export const AREA_ROLES = {
  worker: ['WORKER'],
  manager: ['MANAGER'],
  admin: ['ADMIN'],
  profile: ['WORKER', 'MANAGER', 'ADMIN'],
} as const satisfies Record<string, readonly Role[]>;

/** null when the role may open the area, else where it is sent instead. */
export function redirectFor(role: Role | '', allowed: readonly Role[]): string | null {
  return role !== '' && allowed.includes(role) ? null : homeOf(role);
}
