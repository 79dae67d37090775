import type { FastifyInstance } from 'fastify';
import { declareFolderAccess } from '../../auth/guard.js';
import { STAFF_ACTIVITY_DENIED } from '../../staff/staff-actions.js';

/** Every route of the Staff activity screen is for admins; the guard checks it at onRequest. */
export default async function staffActivityAccess(app: FastifyInstance): Promise<void> {
  declareFolderAccess(app, { roles: ['ADMIN'], roleDenied: STAFF_ACTIVITY_DENIED });
}
