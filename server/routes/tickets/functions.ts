import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AssignTicketBody,
  CreateTicketBody,
  TicketChange,
  TicketPage,
  TicketView,
  UpdateTicketStatusBody,
  WorkerTicketsBody,
} from '../../../ledger/contract/tickets.js';
import { authOf } from '../../auth/guard.js';
import { forbidden, HttpError } from '../../errors.js';
import { assertManagesWorker, ONLY_MANAGERS, onlyFor, ownershipOf, STAFF_ROLES } from '../../shared/access.js';
import { TicketClaimPolicy } from './claim-policy.js';
import { workerOfCustomer } from './queries.js';
import { SupportTickets, ticketJson } from './tickets.js';

export const autoPrefix = '/functions/v1';

const ONLY_CUSTOMERS_OPEN = 'Only customers open support tickets.';

/**
 * Support tickets (spec 001 "Support Tickets", spec 002 "Support Tickets (worker view)"):
 * a customer opens and follows their own tickets; the worker who owns the customer answers
 * and sets the status; tickets of customers no worker owns wait in a queue managers assign from.
 * The conversation's reads and replies are ./api.ts, the files ./attachment-functions.ts and ./attachment-api.ts.
 */
const ticketFunctions: FastifyPluginAsyncZod = async (app) => {
  const tickets = new SupportTickets(app.ledger, app.realtime);
  const db = tickets.db;
  const policy = new TicketClaimPolicy(app.ledger, tickets, app.liveFeed);
  await policy.start();
  app.addHook('onClose', () => policy.stop());

  app.post(
    '/create-support-ticket',
    {
      config: { rateLimit: { max: 20, timeWindow: '1 minute' }, ...onlyFor(['USER'], ONLY_CUSTOMERS_OPEN) },
      schema: {
        tags: ['functions'],
        response: { 200: TicketView },
        body: CreateTicketBody,
      },
    },
    async (request) => {
      const caller = authOf(request);
      if (caller.role !== 'USER') throw forbidden(ONLY_CUSTOMERS_OPEN);
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
      // A customer gets assertManagesWorker's refusal, before the body is read.
      config: onlyFor(STAFF_ROLES, ONLY_MANAGERS),
      schema: {
        tags: ['functions'],
        response: { 200: TicketPage },
        body: WorkerTicketsBody,
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
        body: UpdateTicketStatusBody,
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
      schema: { tags: ['functions'], response: { 200: TicketChange }, body: AssignTicketBody },
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
      const ownWorker = await workerOfCustomer(db, ticket.user_id);
      if (ownWorker && ownWorker !== request.body.workerId) {
        await policy.sweep([ticket.user_id]);
        throw new HttpError(409, 'This customer has their own worker now; the ticket has gone to them.');
      }
      await tickets.run(ticket.id, { type: 'Assign', workerId: request.body.workerId }, caller);
      return { success: true, ticket: ticketJson((await tickets.find(ticket.id))!) };
    },
  );
};

export default ticketFunctions;
