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

/** Each staff area by its first segment under /dashboard (router.tsx nests its routes under a RoleRoute of the same roles). */
const AREA_OF_SEGMENT: Readonly<Record<string, readonly Role[]>> = {
  worker: AREA_ROLES.worker,
  manager: AREA_ROLES.manager,
  admin: AREA_ROLES.admin,
  'user-profile': AREA_ROLES.profile,
};

/**
 * Where a role opening `pathname` is sent, decided from the path and the session alone, before
 * any of the dashboard's code loads: null when it may open it (a path outside the staff areas
 * included), else its own home, as RoleRoute does once the area's routes render.
 */
export function areaRedirect(pathname: string, role: Role | ''): string | null {
  const segment = /^\/dashboard\/([^/]+)/.exec(pathname)?.[1];
  const allowed = segment !== undefined && Object.hasOwn(AREA_OF_SEGMENT, segment) ? AREA_OF_SEGMENT[segment] : undefined;
  return allowed ? redirectFor(role, allowed) : null;
}
