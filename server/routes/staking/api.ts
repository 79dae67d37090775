import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ScheduledTransactions, ScheduledTransactionsQuery } from '../../../ledger/contract/staking.js';
import { authOf } from '../../auth/guard.js';
import { formatAmount, money } from '../../../ledger/money.js';
import { scheduledTransactions } from './queries.js';

export const autoPrefix = '/api/v1';

/** Manage Stakes (spec 001): the caller's scheduled stake payouts. */
const stakingApi: FastifyPluginAsyncZod = async (app) => {
  const db = app.ledger.database.db;

  // The spec's select: the user's rows, status pending, type stake_payout, by scheduled_at ascending.
  app.get(
    '/scheduled-transactions',
    {
      schema: {
        tags: ['api'],
        response: { 200: ScheduledTransactions },
        querystring: ScheduledTransactionsQuery,
      },
    },
    async (request) => {
      const caller = authOf(request);
      const rows = await scheduledTransactions(db, caller.userId, request.query.status, request.query.type);
      return {
        scheduledTransactions: rows.map((r) => ({
          id: r.id,
          user_id: r.user_id,
          asset_id: r.asset_id,
          amount: formatAmount(money(r.amount)),
          duration_days: r.duration_days,
          rate: formatAmount(money(r.rate)),
          estimated_earnings: formatAmount(money(r.estimated_earnings)),
          scheduled_at: new Date(r.scheduled_at).toISOString(),
          status: r.status,
          type: r.type,
          created_at: new Date(r.created_at).toISOString(),
          completed_at: r.completed_at ? new Date(r.completed_at).toISOString() : null,
          payout_transaction_id: r.payout_transaction_id,
        })),
      };
    },
  );
};

export default stakingApi;
