import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { WorkerInfoBody, WorkerList } from '../../../ledger/contract/staff-workers.js';
import { authOf } from '../../auth/guard.js';
import { forbidden } from '../../errors.js';
import { ONLY_MANAGERS, onlyFor } from '../../shared/access.js';
import { pageWindow } from '../../staff/paging.js';
import { workersOf } from './queries.js';

export const autoPrefix = '/api/v1';

/**
 * The spec's procedure get_worker_info(p_manager_id): a manager's workers, as a list. With
 * p_page or p_page_size it answers one page, and X-Total-Count says how many there are in all.
 */
const workerInfoRpc: FastifyPluginAsyncZod = async (app) => {
  const { accounts } = app.authServices;
  app.post(
    '/rpc/get_worker_info',
    {
      config: onlyFor(['MANAGER', 'ADMIN'], ONLY_MANAGERS),
      schema: {
        tags: ['api'],
        response: { 200: WorkerList },
        body: WorkerInfoBody,
      },
    },
    async (request, reply) => {
      const staff = authOf(request);
      const { p_manager_id: managerId, p_page: page, p_page_size: size } = request.body;
      if (staff.role === 'MANAGER' && managerId !== staff.userId) throw forbidden('Access Denied: You can only list your own workers.');
      const { list, totalCount } = await workersOf(accounts.db, managerId, pageWindow(page, size));
      reply.header('X-Total-Count', String(totalCount));
      return list;
    },
  );
};

export default workerInfoRpc;
