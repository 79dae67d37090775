import type { FastifyInstance } from 'fastify';
import { declareFolderAccess } from '../../auth/guard.js';
import { STAFF_ONLY } from '../../shared/access.js';

/**
 * The two-person rule's calls are for staff: a caller who is not staff gets 403 at onRequest,
 * before the body is read. A route with its own `config.auth` keeps it (list-approvals' text,
 * decide-approval's managers and admins); whose requests a caller sees is still the handler's.
 */
export default async function approvalsAccess(app: FastifyInstance): Promise<void> {
  declareFolderAccess(app, STAFF_ONLY);
}
