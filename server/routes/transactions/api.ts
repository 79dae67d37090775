import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/guard.js';
import { notFound } from '../../errors.js';
import { entryView, transactionEntry, transactionsPageJson } from '../../transactions/list.js';
import { ById } from '../../../ledger/contract/common.js';
import { TransactionEntry, TransactionsPage, TransactionsQuery } from '../../../ledger/contract/transactions.js';

export const autoPrefix = '/api/v1';

/**
 * The customer's transactions (spec 001: Transactions): a page of the list and one entry, where a
 * swap's two legs are one entry. The reads are server/transactions/list.ts (the staff's list and
 * the benchmark use them too).
 */
const transactionsApi: FastifyPluginAsyncZod = async (app) => {
  const db = app.ledger.database.db;

  app.get(
    '/transactions',
    {
      schema: {
        tags: ['api'],
        response: { 200: TransactionsPage },
        querystring: TransactionsQuery,
      },
    },
    async (request, reply) => {
      const caller = authOf(request);
      const { page, pageSize } = request.query;
      // A swap's two legs are one entry (server/transactions/list.ts); the answer comes as
      // JSON text in the declared shape, which fastify sends as it is (no second serialization).
      const body = await transactionsPageJson(db, caller.userId, page, pageSize);
      return reply.type('application/json; charset=utf-8').send(body as unknown as z.infer<typeof TransactionsPage>);
    },
  );

  app.get('/transactions/:id', { schema: { tags: ['api'], response: { 200: TransactionEntry }, params: ById } }, async (request) => {
    const caller = authOf(request);
    const entry = await transactionEntry(db, caller.userId, request.params.id);
    if (!entry) throw notFound('Transaction not found.');
    return entryView(entry);
  });
};

export default transactionsApi;
