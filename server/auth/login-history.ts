import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { authOf, type Guard } from './guard.js';

/** Spec 001 and 002: login history is shown five at a time. */
export const LOGIN_HISTORY_PAGE_SIZE = 5;

/**
 * GET /api/v1/login-history: the caller's own sign-ins (Settings > Security), newest first;
 * `page` starts at 1. Staff read a customer's through the get-login-history function.
 */
export function loginHistoryRoutes(deps: { db: Kysely<DB>; guard: Guard }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/login-history',
      {
        preHandler: deps.guard.requireAuth(),
        schema: {
          tags: ['api'],
          querystring: z.object({
            page: z.coerce.number().int().min(1).max(100_000).default(1),
            pageSize: z.coerce.number().int().min(1).max(50).default(LOGIN_HISTORY_PAGE_SIZE),
          }),
        },
      },
      async (request) => {
        const caller = authOf(request);
        const { page, pageSize } = request.query;
        const userId = caller.userId;
        const rows = await deps.db
          .selectFrom('login_history')
          .select(['id', 'timestamp', 'ip_address', 'user_agent'])
          .where('user_id', '=', userId)
          .orderBy('timestamp', 'desc')
          .orderBy('id', 'desc')
          .limit(pageSize)
          .offset((page - 1) * pageSize)
          .execute();
        return rows.map((r) => ({ id: r.id, timestamp: new Date(r.timestamp).toISOString(), ip_address: r.ip_address, user_agent: r.user_agent }));
      },
    );
  };
}
