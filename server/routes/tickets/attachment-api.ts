import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ById, Done } from '../../../ledger/contract/common.js';
import { LinkAttachmentBody, TicketAttachment, TicketIdQuery } from '../../../ledger/contract/tickets.js';
import { authOf } from '../../auth/guard.js';
import { notFound } from '../../errors.js';
import { TICKET_TEXT } from '../../../ledger/tickets/ticket.js';
import { findAttachment, writtenAttachment } from './queries.js';
import { attachmentJson, SupportTickets } from './tickets.js';

export const autoPrefix = '/api/v1';

/**
 * A ticket's attachments (spec 001/002): list them, link an upload to the reply it belongs to,
 * remove a pending upload (blob and row). Uploading and reading a file are ./attachment-functions.ts.
 */
const attachmentApi: FastifyPluginAsyncZod = async (app) => {
  const { blobs } = app;
  const tickets = new SupportTickets(app.ledger, app.realtime);
  const db = tickets.db;

  app.get(
    '/ticket-attachments',
    { schema: { tags: ['api'], response: { 200: z.array(TicketAttachment) }, querystring: TicketIdQuery } },
    async (request) => {
      await tickets.forParticipant(request.query.ticket_id, authOf(request));
      return (await tickets.conversation(request.query.ticket_id)).attachments;
    },
  );

  app.patch(
    '/ticket-attachments/:id',
    {
      schema: {
        tags: ['api'],
        response: { 200: TicketAttachment },
        params: ById,
        body: LinkAttachmentBody,
      },
    },
    async (request) => {
      const caller = authOf(request);
      const row = await findAttachment(db, request.params.id);
      if (!row) throw notFound(TICKET_TEXT.attachmentNotFound);
      await tickets.forParticipant(row.ticket_id, caller);
      await tickets.run(
        row.ticket_id,
        { type: 'LinkAttachment', attachmentId: request.params.id, responseId: request.body.response_id, by: caller.userId },
        caller,
      );
      return attachmentJson(await writtenAttachment(db, request.params.id));
    },
  );

  app.delete('/ticket-attachments/:id', { schema: { tags: ['api'], response: { 200: Done }, params: ById } }, async (request) => {
    const caller = authOf(request);
    const row = await findAttachment(db, request.params.id);
    if (!row) throw notFound(TICKET_TEXT.attachmentNotFound);
    await tickets.forParticipant(row.ticket_id, caller);
    await tickets.run(row.ticket_id, { type: 'RemoveAttachment', attachmentId: request.params.id, by: caller.userId }, caller);
    // The event says it was removed; the bytes go with it.
    await blobs.delete(row.storage_path);
    return { success: true };
  });
};

export default attachmentApi;
