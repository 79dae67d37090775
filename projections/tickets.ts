import { sql } from 'kysely';
import { isTicketEventType, TICKET_STREAM_PREFIX, type TicketEvent } from '../ledger/tickets/ticket.js';
import { table, timestampText, type Projection } from './projection.js';

/** support_tickets, ticket_responses and ticket_attachments from the `ticket-{id}` streams. */
export const ticketsProjection: Projection = {
  name: 'tickets',
  tables: ['support_tickets', 'ticket_responses', 'ticket_attachments'],
  handles: (type) => isTicketEventType(type),

  async apply(target, events) {
    const tickets = table(target, 'support_tickets');
    const responses = table(target, 'ticket_responses');
    const attachments = table(target, 'ticket_attachments');
    for (const recorded of events) {
      if (!isTicketEventType(recorded.type)) continue;
      const e = { type: recorded.type, data: recorded.data } as TicketEvent;
      const id = recorded.streamId.slice(TICKET_STREAM_PREFIX.length);
      const at = timestampText(recorded.recordedAt);
      const touch = () => sql`update ${tickets} set updated_at = ${at}::timestamptz where id = ${id}::uuid`.execute(target.trx);
      switch (e.type) {
        case 'ticket.opened':
          await sql`insert into ${tickets} (id, user_id, subject, message, urgency, status, created_at, assigned_worker_id, updated_at)
            values (${id}::uuid, ${e.data.customerId}::uuid, ${e.data.subject}, ${e.data.message}, ${e.data.urgency}, 'open',
              ${at}::timestamptz, ${e.data.assignedWorkerId}::uuid, ${at}::timestamptz)`.execute(target.trx);
          break;
        case 'ticket.assigned':
          await sql`update ${tickets} set assigned_worker_id = ${e.data.workerId}::uuid, updated_at = ${at}::timestamptz where id = ${id}::uuid`.execute(
            target.trx,
          );
          break;
        case 'ticket.response-posted':
          await sql`insert into ${responses} (id, ticket_id, user_id, message, created_at, is_from_worker)
            values (${e.data.responseId}::uuid, ${id}::uuid, ${e.data.authorId}::uuid, ${e.data.message}, ${at}::timestamptz, ${e.data.fromWorker})`.execute(
            target.trx,
          );
          await touch();
          break;
        case 'ticket.attachment-added':
          await sql`insert into ${attachments} (id, ticket_id, response_id, file_name, file_type, file_size, uploaded_at, is_from_worker, storage_path, uploaded_by, opening)
            values (${e.data.attachmentId}::uuid, ${id}::uuid, ${e.data.responseId}::uuid, ${e.data.fileName}, ${e.data.fileType}, ${e.data.fileSize},
              ${at}::timestamptz, ${e.data.fromWorker}, ${e.data.blobId}, ${e.data.uploadedBy}::uuid, ${e.data.opening})`.execute(
            target.trx,
          );
          break;
        case 'ticket.attachment-removed':
          await sql`delete from ${attachments} where id = ${e.data.attachmentId}::uuid`.execute(target.trx);
          break;
        case 'ticket.attachment-linked':
          await sql`update ${attachments} set response_id = ${e.data.responseId}::uuid where id = ${e.data.attachmentId}::uuid`.execute(
            target.trx,
          );
          break;
        case 'ticket.status-changed':
          await sql`update ${tickets} set status = ${e.data.to}, updated_at = ${at}::timestamptz where id = ${id}::uuid`.execute(
            target.trx,
          );
          break;
      }
    }
  },
};
