import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/guard.js';
import { HttpError } from '../../errors.js';
import { ById, NoContent } from '../../../ledger/contract/common.js';
import { LiveSession } from '../../../ledger/contract/access.js';

export const autoPrefix = '/auth/v1';

export const SESSION_NOT_FOUND = 'No such session. It may have ended already.';

/** `/auth/v1/sessions`: the account's live sessions, any one of which its owner may end (Settings > Security). */
const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sessions } = app.authServices;
  app.get(
    '/sessions',
    { schema: { tags: ['auth'], summary: 'The live sessions of the signed-in account', response: { 200: z.array(LiveSession) } } },
    async (request) => {
      const auth = authOf(request);
      return sessions.listLive(auth.userId, auth.role, auth.sessionId);
    },
  );

  app.delete(
    '/sessions/:id',
    {
      schema: {
        tags: ['auth'],
        response: { 204: NoContent },
        summary: 'Ends one session of the signed-in account',
        params: ById,
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      if (!(await sessions.revokeOwn(auth.userId, request.params.id))) throw new HttpError(404, SESSION_NOT_FOUND);
      return reply.status(204).send(null);
    },
  );
};
export default sessionRoutes;
