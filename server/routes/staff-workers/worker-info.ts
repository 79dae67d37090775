import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { WorkerInfoBody, WorkerList } from '../../../ledger/contract/staff-workers.js';
import { authOf } from '../../auth/guard.js';
import { forbidden } from '../../errors.js';
import { ONLY_MANAGERS, onlyFor } from '../../shared/access.js';
import { pageWindow } from '../../staff/paging.js';

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
      const workers = accounts.db.selectFrom('users').where('role', '=', 'WORKER').where('manager_id', '=', managerId);
      let rows = workers.select(['id', 'full_name', 'email']).orderBy('full_name').orderBy('id');
      const window = pageWindow(page, size);
      if (window) rows = rows.limit(window.limit).offset(window.offset);
      const [list, count] = await Promise.all([
        rows.execute(),
        window ? workers.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst() : null,
      ]);
      reply.header('X-Total-Count', String(count ? Number(count.n) : list.length));
      return list;
    },
  );
};

export default workerInfoRpc;
