import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/guard.js';
import { ASSET_IDS } from '../../../ledger/assets.js';
import { dailyBalances } from '../../../ledger/wallet/balance-history.js';
import { BalanceHistory, BalanceHistoryQuery } from '../../../ledger/contract/transactions.js';
import { settledTransactions } from './queries.js';

export const autoPrefix = '/api/v1';

/** GET /api/v1/balance-history?days=N: the caller's settled balance per asset at the end of each of the last N days. */
const balanceHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ledger.database.db;
  app.get(
    '/balance-history',
    {
      schema: {
        tags: ['api'],
        response: { 200: BalanceHistory },
        querystring: BalanceHistoryQuery,
      },
    },
    async (request) => {
      const { userId } = authOf(request);
      const rows = await settledTransactions(db, userId);
      const days = dailyBalances(
        rows.map((r) => ({ assetId: r.asset_id, amount: String(r.amount), settledAt: new Date(r.updated_at) })),
        new Date(),
        request.query.days,
      );
      return { assets: ASSET_IDS, days };
    },
  );
};

export default balanceHistoryRoutes;
