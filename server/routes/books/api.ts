import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BalanceAt,
  BalanceAtQuery,
  DATE_ONLY,
  LiabilitiesProof,
  NO_PUBLISHED_LIABILITIES,
  StatementCsv,
  StatementQuery,
} from '../../../ledger/contract/books.js';
import { latestProofOf } from '../../books/liabilities-proofs.js';
import { authOf } from '../../auth/guard.js';
import { onlyFor } from '../../shared/access.js';
import { badRequest, notFound } from '../../errors.js';
import { walletStream } from '../../../ledger/wallet/events.js';
import { balanceAt, EventNotInWalletError } from '../../../ledger/journal/time-travel.js';
import { buildStatement, statementCsv } from '../../../ledger/journal/statement.js';

export const autoPrefix = '/api/v1';

/** A date alone means the start of that day (from) or its end (to, at), in UTC. */
function moment(text: string, endOfDay: boolean): Date {
  return new Date(DATE_ONLY.test(text) ? `${text}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}Z` : text);
}

/**
 * Finance reads over the event log: a customer's own statement (CSV) and, for admins, a
 * customer's balances at a moment or just after one of their events (the event trail's
 * "balance at this event").
 */
const booksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ledger } = app;
  app.get(
    '/statement',
    { schema: { tags: ['api'], response: { 200: StatementCsv }, querystring: StatementQuery } },
    async (request, reply) => {
      const caller = authOf(request);
      const from = moment(request.query.from, false);
      const to = moment(request.query.to, true);
      if (from > to) throw badRequest('The start date must be on or before the end date.');
      const events = await ledger.store.readStream(walletStream(caller.userId));
      const statement = buildStatement(caller.userId, events, from, to, { hideHidden: true });
      if (request.query.format === 'json')
        return reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(JSON.stringify(statement));
      const name = `statement-${request.query.from.slice(0, 10)}-to-${request.query.to.slice(0, 10)}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(statementCsv(statement));
    },
  );

  app.get('/liabilities-proof', { schema: { tags: ['api'], response: { 200: LiabilitiesProof } } }, async (request, reply) => {
    const caller = authOf(request);
    const proof = await latestProofOf(ledger.database.db, caller.userId);
    if (!proof) throw notFound(NO_PUBLISHED_LIABILITIES);
    return reply
      .header('content-disposition', `attachment; filename="liabilities-proof-${proof.at.slice(0, 10)}.json"`)
      .header('cache-control', 'no-store')
      .send(proof);
  });

  app.get(
    '/admin/balance-at',
    {
      config: onlyFor(['ADMIN'], 'Access Denied: Only admins can view balances at a point in time.'),
      schema: {
        tags: ['api'],
        response: { 200: BalanceAt },
        querystring: BalanceAtQuery,
      },
    },
    async (request) => {
      const { userId, eventId, at, asset } = request.query;
      if ((eventId === undefined) === (at === undefined)) throw badRequest('Give either eventId or at.');
      try {
        return await balanceAt(ledger.store, userId, eventId ? { eventId } : { at: moment(at!, true) }, asset);
      } catch (err) {
        if (err instanceof EventNotInWalletError) throw notFound(err.message);
        throw err;
      }
    },
  );
};

export default booksRoutes;
