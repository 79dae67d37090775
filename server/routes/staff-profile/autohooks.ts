import type { FastifyInstance } from 'fastify';
import { declareFolderAccess } from '../../auth/guard.js';
import { STAFF_ONLY } from '../../shared/access.js';

/**
 * Every route of the user profile's tabs is for staff: a caller who is not staff gets the access
 * rule's 403 at onRequest, before the body is read (remove-user-mfa narrows it to managers and
 * admins in its own `config`). Which customers a staff member reaches is still checked in each
 * handler (`customerInReach`, `assertCanManageUser`).
 */
export default async function staffProfileAccess(app: FastifyInstance): Promise<void> {
  declareFolderAccess(app, STAFF_ONLY);
}
