import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ResponseAdded,
  TICKETS_PER_PAGE,
  TicketChange,
  TicketPage,
  TicketResponse,
  TicketThread,
  TicketView,
} from '../../ledger/contract/tickets.js';
import type { AuthServices } from '../auth/index.js';
import { authOf } from '../auth/guard.js';
import type { LedgerContext } from '../context.js';
import type { BlobStore } from '../blobs/blob-store.js';
import { forbidden, HttpError } from '../errors.js';
import type { RealtimeHub } from '../realtime/hub.js';
import type { LiveFeed } from '../realtime/live-feed.js';
import { assertManagesWorker, onlyFor, ownershipOf } from '../shared/access.js';
import { MESSAGE_MAX, SUBJECT_MAX, TicketStatus, Urgency } from '../../ledger/tickets/ticket.js';
import { attachmentRoutes } from './attachment-routes.js';
import { TicketClaimPolicy } from './claim-policy.js';
import { responseJson, SupportTickets, ticketJson } from './tickets.js';

/** Spec 001 section 9 and spec 002 section 9: both lists show 5 tickets per page. */
export { TICKETS_PER_PAGE };

const paging = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1).max(50).default(TICKETS_PER_PAGE),
};

/**
 * Support tickets (spec 001 "Support Tickets", spec 002 "Support Tickets (worker view)"):
 * a customer opens and follows their own tickets; the worker who owns the customer answers
 * and sets the status; tickets of customers no worker owns wait in a queue managers assign from.
 */
export function supportRoutes(
  auth: AuthServices,
  ledger: LedgerContext,
  hub: RealtimeHub,
  blobs: BlobStore,
  live: LiveFeed,
): { functions: FastifyPluginAsyncZod; api: FastifyPluginAsyncZod } {
  const tickets = new SupportTickets(ledger, hub);
  const db = tickets.db;
  const attachments = attachmentRoutes(auth, tickets, blobs);

  const functions: FastifyPluginAsyncZod = async (app) => {
    await app.register(attachments.functions);
    const policy = new TicketClaimPolicy(ledger, tickets, live);
    await policy.start();
    app.addHook('onClose', () => policy.stop());

    app.post(
      '/create-support-ticket',
      {
        config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
        schema: {
          tags: ['functions'],
          response: { 200: TicketView },
          body: z.object({
            subject: z.string().max(SUBJECT_MAX).default(''),
            message: z.string().max(MESSAGE_MAX).default(''),
            urgency: Urgency.default('medium'),
            userId: z.uuid().optional(),
          }),
        },
      },
      async (request) => {
        const caller = authOf(request);
        if (caller.role !== 'USER') throw forbidden('Only customers open support tickets.');
        if (request.body.userId && request.body.userId !== caller.userId) throw forbidden('You can only open tickets for yourself.');
        const owner = await ownershipOf(db, caller.userId);
        const ticketId = randomUUID();
        const { subject, message, urgency } = request.body;
        await tickets.run(
          ticketId,
          { type: 'Open', customerId: caller.userId, subject, message, urgency, assignedWorkerId: owner?.workerId ?? null },
          caller,
        );
        // A claim made since the ownership was read swept before this ticket existed: sweep again,
        // so that of the two sweeps (the claim's, this one) one always sees both.
        if (!owner?.workerId) await policy.sweep([caller.userId]);
        return ticketJson((await tickets.find(ticketId))!);
      },
    );

    app.post(
      '/get-worker-tickets',
      {
        schema: {
          tags: ['functions'],
          response: { 200: TicketPage },
          body: z.object({ workerId: z.uuid(), status: TicketStatus.optional(), ...paging }),
        },
      },
      async (request) => {
        const caller = authOf(request);
        const { workerId, status, page, perPage } = request.body;
        if (caller.role === 'WORKER') {
          if (workerId !== caller.userId) throw forbidden('Access Denied: You can only see your own tickets.');
        } else {
          await assertManagesWorker(db, caller, workerId);
        }
        const { rows, totalCount } = await tickets.page({ workerId, status }, 'desc', page, perPage);
        return { tickets: rows.map(ticketJson), userEmails: await tickets.emails(rows.map((r) => r.user_id)), totalCount };
      },
    );

    app.post(
      '/update-ticket-status',
      {
        schema: {
          tags: ['functions'],
          response: { 200: TicketChange },
          body: z.object({ ticketId: z.uuid(), status: TicketStatus, userId: z.uuid().optional() }),
        },
      },
      async (request) => {
        const caller = authOf(request);
        const { ticket, side } = await tickets.forParticipant(request.body.ticketId, caller);
        if (side !== 'worker') throw forbidden('Only the assigned worker can change the status of a ticket.');
        await tickets.run(ticket.id, { type: 'ChangeStatus', to: request.body.status }, caller);
        return { success: true, ticket: ticketJson((await tickets.find(ticket.id))!) };
      },
    );

    /** The queue: a manager (or admin) gives a ticket of an unowned customer to one of their workers. */
    app.post(
      '/assign-ticket',
      {
        config: onlyFor(['MANAGER', 'ADMIN'], 'Access Denied: Only managers can assign tickets.'),
        schema: { tags: ['functions'], response: { 200: TicketChange }, body: z.object({ ticketId: z.uuid(), workerId: z.uuid() }) },
      },
      async (request) => {
        const caller = authOf(request);
        await assertManagesWorker(db, caller, request.body.workerId);
        const ticket = await tickets.find(request.body.ticketId);
        if (!ticket) throw new HttpError(404, 'Ticket not found.');
        if (ticket.assigned_worker_id && ticket.assigned_worker_id !== request.body.workerId) {
          throw new HttpError(409, 'This ticket is already assigned to a worker.');
        }
        // The queue holds tickets of customers nobody owns. One whose customer was claimed while
        // it was being opened goes to the customer's own worker, never to another team's.
        const owner = await db
          .selectFrom('user_profiles')
          .select('assigned_worker_id')
          .where('user_id', '=', ticket.user_id)
          .executeTakeFirst();
        if (owner?.assigned_worker_id && owner.assigned_worker_id !== request.body.workerId) {
          await policy.sweep([ticket.user_id]);
          throw new HttpError(409, 'This customer has their own worker now; the ticket has gone to them.');
        }
        await tickets.run(ticket.id, { type: 'Assign', workerId: request.body.workerId }, caller);
        return { success: true, ticket: ticketJson((await tickets.find(ticket.id))!) };
      },
    );
  };

  const api: FastifyPluginAsyncZod = async (app) => {
    await app.register(attachments.api);

    /** The customer's own tickets, newest first. */
    app.get(
      '/support-tickets',
      { schema: { tags: ['api'], response: { 200: TicketPage }, querystring: z.object(paging) } },
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
        schema: { tags: ['api'], response: { 200: TicketPage }, querystring: z.object(paging) },
      },
      async (request) => {
        const { page, perPage } = request.query;
        const { rows, totalCount } = await tickets.page({ workerId: null }, 'asc', page, perPage);
        return { tickets: rows.map(ticketJson), userEmails: await tickets.emails(rows.map((r) => r.user_id)), totalCount };
      },
    );

    /** One ticket with its conversation, for its customer or its worker. */
    app.get(
      '/support-tickets/:id',
      { schema: { tags: ['api'], response: { 200: TicketThread }, params: z.object({ id: z.uuid() }) } },
      async (request) => {
        const { ticket } = await tickets.forParticipant(request.params.id, authOf(request));
        const emails = await tickets.emails([ticket.user_id]);
        return {
          ticket: { ...ticketJson(ticket), user_email: emails[ticket.user_id] ?? null },
          ...(await tickets.conversation(ticket.id)),
        };
      },
    );

    app.get(
      '/ticket-responses',
      { schema: { tags: ['api'], response: { 200: z.array(TicketResponse) }, querystring: z.object({ ticket_id: z.uuid() }) } },
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
          body: z.object({ ticket_id: z.uuid(), message: z.string().max(MESSAGE_MAX).default('') }),
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
        const row = await db.selectFrom('ticket_responses').selectAll().where('id', '=', responseId).executeTakeFirstOrThrow();
        return { response: responseJson(row), ticket: ticketJson((await tickets.find(ticket.id))!) };
      },
    );
  };

  return { functions, api };
}
