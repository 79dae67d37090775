import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest } from '../../errors.js';
import { STAFF_ACTION_NAMES, StaffActionPageSchema, StaffActionsQuery } from '../../../ledger/contract/staff-activity.js';
import { Bytes } from '../../../ledger/contract/common.js';
import {
  accountIdOf,
  allStaffActions,
  decodeCursor,
  listStaffActions,
  STAFF_ACTIONS_EXPORT_MAX,
  staffActionsCsvHeader,
  staffActionsCsvRows,
  type StaffActionFilter,
} from '../../staff/staff-actions.js';

export const autoPrefix = '/api/v1';

const momentOf = (text: string, endOfDay: boolean) =>
  new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}Z` : text);

/** GET /api/v1/admin/staff-actions: the Staff activity list (admins only: autohooks.ts), as JSON pages or one CSV. */
const staffActionRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ledger.database.db;
  app.get(
    '/admin/staff-actions',
    {
      schema: {
        tags: ['api'],
        response: { 200: z.union([StaffActionPageSchema, Bytes('text/csv: the list with format=csv')]) },
        querystring: StaffActionsQuery,
      },
    },
    async (request, reply) => {
      const q = request.query;
      const filter: StaffActionFilter = { action: q.action };
      for (const [key, field, who] of [
        ['staff', 'staffId', 'staff member'],
        ['customer', 'customerId', 'customer'],
      ] as const) {
        const given = q[key];
        if (given === undefined) continue;
        const id = await accountIdOf(db, given);
        if (!id) throw badRequest(`No ${who} with the e-mail address ${given}.`);
        filter[field] = id;
      }
      if (q.from) filter.from = momentOf(q.from, false);
      if (q.to) filter.to = momentOf(q.to, true);
      if (filter.from && filter.to && filter.from > filter.to) throw badRequest('The start date must be on or before the end date.');
      if (q.format === 'csv') {
        let csv = staffActionsCsvHeader();
        for await (const rows of allStaffActions(db, filter, STAFF_ACTIONS_EXPORT_MAX)) csv += staffActionsCsvRows(rows);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="staff-activity.csv"')
          .header('cache-control', 'no-store')
          .send(csv);
      }
      const cursor = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
      if (cursor === null) throw badRequest('cursor: not a cursor this list gave.');
      return { ...(await listStaffActions(db, filter, { limit: q.limit, cursor })), actionNames: [...STAFF_ACTION_NAMES] };
    },
  );
};

export default staffActionRoutes;
