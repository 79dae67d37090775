import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ByUserId } from '../../../ledger/contract/common.js';
import { StaffTransactionPage, StaffTransactionsQuery } from '../../../ledger/contract/staff-users.js';
import { authOf } from '../../auth/guard.js';
import { badRequest } from '../../errors.js';
import { assertCanManageUser } from '../../shared/access.js';
import { staffHistoryRows, userTransactionId } from './queries.js';

export const autoPrefix = '/api/v1';

/** Rows per page of the staff history (a page never ends between the two legs of a swap). */
export const STAFF_HISTORY_PAGE = 500;

/**
 * The staff's Transactions tab (spec 002: every row of the user, hidden ones included,
 * newest first), a page at a time: `before` is the id of the last row already shown, and
 * `next` the id to ask with for the rows after this page (null at the end). Swap legs carry
 * their request id; the screen pairs them.
 */
const staffTransactionListRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ledger } = app;
  const db = ledger.database.db;
  app.get(
    '/users/:userId/transactions',
    {
      schema: {
        tags: ['api'],
        response: { 200: StaffTransactionPage },
        params: ByUserId,
        querystring: StaffTransactionsQuery,
      },
    },
    async (request) => {
      const staff = authOf(request);
      const { userId } = request.params;
      await assertCanManageUser(db, staff, userId);
      const before = request.query.before;
      if (before) {
        const known = await userTransactionId(db, userId, before);
        if (!known) throw badRequest('Unknown transaction to continue the history from.');
      }
      const rows = await staffHistoryRows(db, userId, before, STAFF_HISTORY_PAGE + 2);
      // A swap's legs sit side by side in this order: keep them on one page.
      let size = Math.min(rows.length, STAFF_HISTORY_PAGE);
      if (rows.length > size && rows[size - 1]!.request_id && rows[size]!.request_id === rows[size - 1]!.request_id) size++;
      const page = rows.slice(0, size);
      return { transactions: page, next: rows.length > size ? page[page.length - 1]!.id : null };
    },
  );
};

export default staffTransactionListRoutes;
