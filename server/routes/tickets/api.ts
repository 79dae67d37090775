import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PostResponseBody,
  ResponseAdded,
  TicketIdQuery,
  TicketPage,
  TicketPageQuery,
  TicketResponse,
  TicketThread,
} from '../../../ledger/contract/tickets.js';
import { ById } from '../../../ledger/contract/common.js';
import { authOf } from '../../auth/guard.js';
import { onlyFor } from '../../shared/access.js';
import { writtenResponse } from './queries.js';
import { responseJson, SupportTickets, ticketJson } from './tickets.js';

export const autoPrefix = '/api/v1';

/** The ticket lists and a ticket's conversation (spec 001 and 002 "Support Tickets"): reads and replies. */
const ticketApi: FastifyPluginAsyncZod = async (app) => {
  const tickets = new SupportTickets(app.ledger, app.realtime);

  /** The customer's own tickets, newest first. */
  app.get(
    '/support-tickets',
    { schema: { tags: ['api'], response: { 200: TicketPage }, querystring: TicketPageQuery } },
    async (request) => {
      const caller = authOf(request);
      const { page, perPage } = request.query;
      const { rows, totalCount } = await tickets.page({ userId: caller.userId }, 'desc', page, perPage);
      return { tickets: rows.map(ticketJson), totalCount };
    },
  );

  /** Tickets no worker has yet, for managers and admins to assign. */
  app.get(
    '/support-tickets/unassigned',
    {
      config: onlyFor(['MANAGER', 'ADMIN'], 'Access Denied: Only managers can see the ticket queue.'),
      schema: { tags: ['api'], response: { 200: TicketPage }, querystring: TicketPageQuery },
    },
    async (request) => {
      const { page, perPage } = request.query;
      const { rows, totalCount } = await tickets.page({ workerId: null }, 'asc', page, perPage);
      return { tickets: rows.map(ticketJson), userEmails: await tickets.emails(rows.map((r) => r.user_id)), totalCount };
    },
  );

  /** One ticket with its conversation, for its customer or its worker. */
  app.get('/support-tickets/:id', { schema: { tags: ['api'], response: { 200: TicketThread }, params: ById } }, async (request) => {
    const { ticket } = await tickets.forParticipant(request.params.id, authOf(request));
    const emails = await tickets.emails([ticket.user_id]);
    return {
      ticket: { ...ticketJson(ticket), user_email: emails[ticket.user_id] ?? null },
      ...(await tickets.conversation(ticket.id)),
    };
  });

  app.get(
    '/ticket-responses',
    { schema: { tags: ['api'], response: { 200: z.array(TicketResponse) }, querystring: TicketIdQuery } },
    async (request) => {
      await tickets.forParticipant(request.query.ticket_id, authOf(request));
      return (await tickets.conversation(request.query.ticket_id)).responses;
    },
  );

  /** A reply; the customer's only when support spoke last (spec 001 section 4). */
  app.post(
    '/ticket-responses',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['api'],
        response: { 200: ResponseAdded },
        body: PostResponseBody,
      },
    },
    async (request) => {
      const caller = authOf(request);
      const { ticket, side } = await tickets.forParticipant(request.body.ticket_id, caller);
      const responseId = randomUUID();
      await tickets.run(
        ticket.id,
        { type: 'PostResponse', responseId, authorId: caller.userId, fromWorker: side === 'worker', message: request.body.message },
        caller,
      );
      const row = await writtenResponse(tickets.db, responseId);
      return { response: responseJson(row), ticket: ticketJson((await tickets.find(ticket.id))!) };
    },
  );
};

export default ticketApi;
