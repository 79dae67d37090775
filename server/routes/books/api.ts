import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BalanceAt, StatementCsv } from '../../../ledger/contract/books.js';
import { authOf } from '../../auth/guard.js';
import { onlyFor } from '../../shared/access.js';
import { badRequest, notFound } from '../../errors.js';
import { ASSET_IDS } from '../../../ledger/assets.js';
import { walletStream } from '../../../ledger/wallet/events.js';
import { balanceAt, EventNotInWalletError } from '../../../ledger/journal/time-travel.js';
import { buildStatement, statementCsv } from '../../../ledger/journal/statement.js';

export const autoPrefix = '/api/v1';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MOMENT = z
  .string()
  .refine((s) => (DAY.test(s) || /^\d{4}-\d{2}-\d{2}T/.test(s)) && !Number.isNaN(Date.parse(DAY.test(s) ? `${s}T00:00:00Z` : s)), {
    message: 'must be a date (2026-03-01) or an ISO time',
  });

/** A date alone means the start of that day (from) or its end (to, at), in UTC. */
function moment(text: string, endOfDay: boolean): Date {
  return new Date(DAY.test(text) ? `${text}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}Z` : text);
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
    { schema: { tags: ['api'], response: { 200: StatementCsv }, querystring: z.object({ from: MOMENT, to: MOMENT }) } },
    async (request, reply) => {
      const caller = authOf(request);
      const from = moment(request.query.from, false);
      const to = moment(request.query.to, true);
      if (from > to) throw badRequest('The start date must be on or before the end date.');
      const events = await ledger.store.readStream(walletStream(caller.userId));
      const statement = buildStatement(caller.userId, events, from, to, { hideHidden: true });
      const name = `statement-${request.query.from.slice(0, 10)}-to-${request.query.to.slice(0, 10)}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(statementCsv(statement));
    },
  );

  app.get(
    '/admin/balance-at',
    {
      config: onlyFor(['ADMIN'], 'Access Denied: Only admins can view balances at a point in time.'),
      schema: {
        tags: ['api'],
        response: { 200: BalanceAt },
        querystring: z.object({
          userId: z.uuid(),
          eventId: z.uuid().optional(),
          at: MOMENT.optional(),
          asset: z.enum(ASSET_IDS).optional(),
        }),
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
