import type { Kysely } from 'kysely';
import type { AuthInfo, GuardOptions } from '../auth/guard.js';
import type { DB } from '../db/schema.js';
import { HttpError, forbidden, notFound } from '../errors.js';

export const STAFF_ROLES = ['WORKER', 'MANAGER', 'ADMIN'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** What a caller who is not staff gets from every call about a customer's profile (spec 002 section "Roles"). */
export const PROFILE_ROLE_DENIED = 'Access Denied: Your role cannot view user profiles.';
/** What a caller who is neither a manager nor an admin gets from a call about a worker (`assertManagesWorker`). */
export const ONLY_MANAGERS = 'Access Denied: Only managers can manage workers.';

export function isStaffRole(role: string): role is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(role);
}

/** Who owns a customer: the worker who claimed them and that worker's manager. */
export interface Ownership {
  workerId: string | null;
  managerId: string | null;
}

/** The customer's owner chain, or null when there is no such customer profile. */
export async function ownershipOf(db: Kysely<DB>, customerId: string): Promise<Ownership | null> {
  const row = await db
    .selectFrom('user_profiles as p')
    .leftJoin('users as w', 'w.id', 'p.assigned_worker_id')
    .select(['p.assigned_worker_id as workerId', 'w.manager_id as managerId'])
    .where('p.user_id', '=', customerId)
    .executeTakeFirst();
  return row ? { workerId: row.workerId, managerId: row.managerId ?? null } : null;
}

/**
 * The one access rule of the back-office (spec 002 section "Roles"): ADMIN reaches every user;
 * a WORKER only the customers they claimed; a MANAGER the customers claimed by their workers.
 */
export async function canManageUser(db: Kysely<DB>, staff: Pick<AuthInfo, 'userId' | 'role'>, targetUserId: string): Promise<boolean> {
  if (staff.role === 'ADMIN') return true;
  if (staff.role !== 'WORKER' && staff.role !== 'MANAGER') return false;
  const owner = await ownershipOf(db, targetUserId);
  if (!owner) return false;
  return staff.role === 'WORKER' ? owner.workerId === staff.userId : owner.managerId === staff.userId;
}

/** Throws the spec's 403 unless this staff member may act on this user's profile. Denied by default. */
export async function assertCanManageUser(db: Kysely<DB>, staff: Pick<AuthInfo, 'userId' | 'role'>, targetUserId: string): Promise<void> {
  if (!isStaffRole(staff.role)) {
    throw new HttpError(403, PROFILE_ROLE_DENIED);
  }
  if (await canManageUser(db, staff, targetUserId)) return;
  throw new HttpError(403, 'Access Denied: You do not have permission to view this profile.');
}

/** A manager acts on their own workers only (reset-worker-password); ADMIN on every worker. */
export async function assertManagesWorker(db: Kysely<DB>, staff: Pick<AuthInfo, 'userId' | 'role'>, workerId: string): Promise<void> {
  if (staff.role !== 'MANAGER' && staff.role !== 'ADMIN') throw new HttpError(403, ONLY_MANAGERS);
  const worker = await db.selectFrom('users').select(['role', 'manager_id']).where('id', '=', workerId).executeTakeFirst();
  if (!worker || worker.role !== 'WORKER') throw new HttpError(404, 'Worker not found.');
  if (staff.role === 'MANAGER' && worker.manager_id !== staff.userId)
    throw new HttpError(403, 'Access Denied: This worker does not report to you.');
}

/** Throws 403 with `message` unless the caller has one of `roles` (role-only screens: claiming, managing workers). */
export function assertRole(staff: Pick<AuthInfo, 'role'>, roles: readonly StaffRole[], message: string): void {
  if (!(roles as readonly string[]).includes(staff.role)) throw new HttpError(403, message);
}

/**
 * The customer account a staff action on a profile targets: the access rule first, then the
 * account must exist and be a customer's. An admin reaches every account, staff ones included,
 * but these actions (ban, note, password reset, permissions, address, transactions) are for
 * customers; staff accounts have their own.
 */
export async function customerInReach<U extends { role: string }>(
  accounts: { db: Kysely<DB>; findById(id: string): Promise<U | null | undefined> },
  staff: Pick<AuthInfo, 'userId' | 'role'>,
  userId: string,
): Promise<U> {
  await assertCanManageUser(accounts.db, staff, userId);
  const user = await accounts.findById(userId);
  if (!user) throw notFound('User not found.');
  if (user.role !== 'USER') throw forbidden('Access Denied: This action applies to customer accounts only.');
  return user;
}

/**
 * A route's `config` for callers of `roles` only: checked with the session, before the body
 * is read (server/auth/guard.ts); any other caller gets 403 with `message`. A folder whose
 * routes all admit the same roles says it once in its `autohooks.ts` (`declareFolderAccess`).
 */
export function onlyFor(
  roles: readonly AuthInfo['role'][],
  message: string,
): { auth: { roles: readonly AuthInfo['role'][]; roleDenied: string } } {
  return { auth: { roles, roleDenied: message } };
}

/** Staff of any role, as the access rule admits them (`assertCanManageUser`): a customer gets 403 `PROFILE_ROLE_DENIED`. */
export const STAFF_ONLY: GuardOptions = { roles: STAFF_ROLES, roleDenied: PROFILE_ROLE_DENIED };
