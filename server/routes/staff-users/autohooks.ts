import type { FastifyInstance } from 'fastify';
import { declareFolderAccess } from '../../auth/guard.js';
import { STAFF_ONLY } from '../../shared/access.js';

/**
 * Every route of this folder is a staff action on a customer: a caller who is not staff gets the
 * access rule's 403 at onRequest, before the body is read. Which customers a staff member reaches
 * (the worker's own, the manager's team's) is still checked in each handler (`customerInReach`).
 */
export default async function staffUsersAccess(app: FastifyInstance): Promise<void> {
  declareFolderAccess(app, STAFF_ONLY);
}
