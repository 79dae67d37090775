import type { FastifyInstance } from 'fastify';
import { declareFolderAccess } from '../../auth/guard.js';
import { STAFF_ONLY } from '../../shared/access.js';

/**
 * Reading and approving a customer's verification (approve-kyc, get-kyc-details) is for staff: a
 * caller who is not staff gets the access rule's 403 at onRequest, before the body is read. The
 * two routes that are not staff's say so in their own `config.auth`: the customer's submission
 * (customers only) and the document link (public; its signed token is the credential). Which
 * customers a staff member reaches is still checked in the handlers (`assertCanManageUser`).
 */
export default async function kycAccess(app: FastifyInstance): Promise<void> {
  declareFolderAccess(app, STAFF_ONLY);
}
