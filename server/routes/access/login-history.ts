import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { forbidden, notFound } from '../../errors.js';
import { assertCanManageUser } from '../../shared/access.js';
import { authOf } from '../../auth/guard.js';
import { LoginEntry, LoginHistoryQuery } from '../../../ledger/contract/access.js';
import { loginHistoryPage, roleOf } from './queries.js';

export const autoPrefix = '/functions/v1';

/**
 * GET /functions/v1/get-login-history, the one call of both screens (spec 001 and 002
 * section 7): sign-ins newest first, `page` from 1. Without `targetUserId` (the customer's
 * Settings > Security) it reads the caller's own; with another user's id it is a staff member
 * opening a customer's profile, allowed only by the one access rule.
 */
const loginHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ledger.database.db;
  app.get(
    '/get-login-history',
    {
      schema: {
        tags: ['functions'],
        response: { 200: z.array(LoginEntry) },
        querystring: LoginHistoryQuery,
      },
    },
    async (request) => {
      const caller = authOf(request);
      const { targetUserId, page, pageSize } = request.query;
      const userId = targetUserId ?? caller.userId;
      if (userId !== caller.userId) {
        await assertCanManageUser(db, caller, userId);
        const role = await roleOf(db, userId);
        if (!role) throw notFound('User not found.');
        // An admin reaches every account, but profile actions are for customers; staff accounts have their own.
        if (role !== 'USER') throw forbidden('Access Denied: This action applies to customer accounts only.');
      }
      const rows = await loginHistoryPage(db, userId, page, pageSize);
      return rows.map((r) => ({
        id: r.id,
        timestamp: new Date(r.timestamp).toISOString(),
        ip_address: r.ip_address,
        user_agent: r.user_agent,
      }));
    },
  );
};
export default loginHistoryRoutes;
