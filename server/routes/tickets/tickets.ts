import type { Kysely } from 'kysely';
import type { AuthInfo } from '../../auth/guard.js';
import type { LedgerContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { HttpError } from '../../errors.js';
import type { RealtimeHub } from '../../realtime/hub.js';
import { ticketDecider, TicketError, TICKET_TEXT, type TicketCommand } from '../../../ledger/tickets/ticket.js';
import {
  attachmentsOf,
  emailsOf,
  findTicket,
  responsesOf,
  ticketPage,
  type AttachmentRow,
  type ResponseRow,
  type TicketFilter,
  type TicketRow,
} from './queries.js';

export type { TicketRow };
export type Caller = { userId: string; role: AuthInfo['role'] | 'SYSTEM' };

/** How a caller takes part in a ticket: its customer, or the worker it is assigned to. */
export type Side = 'customer' | 'worker';

const status: Record<TicketError['code'], number> = { not_found: 404, invalid: 400, forbidden: 403, conflict: 409 };

/** Ticket reads, the one access rule for a ticket, and commands that tell both sides at once. */
export class SupportTickets {
  readonly db: Kysely<DB>;
  constructor(
    private readonly ledger: LedgerContext,
    private readonly hub: RealtimeHub,
  ) {
    this.db = ledger.database.db;
  }

  find(ticketId: string): Promise<TicketRow | undefined> {
    return findTicket(this.db, ticketId);
  }

  /**
   * The ticket if the caller is its customer or its assigned worker. Anyone else gets the same
   * 404 as for a ticket that does not exist, so ids of others' tickets reveal nothing.
   */
  async forParticipant(ticketId: string, caller: Caller): Promise<{ ticket: TicketRow; side: Side }> {
    const ticket = await this.find(ticketId);
    if (ticket) {
      if (caller.role === 'USER' && ticket.user_id === caller.userId) return { ticket, side: 'customer' };
      if (caller.role === 'WORKER' && ticket.assigned_worker_id === caller.userId) return { ticket, side: 'worker' };
    }
    throw new HttpError(404, TICKET_TEXT.notFound);
  }

  /** Runs a ticket command as `caller`, then tells the customer's and the worker's open screens. */
  async run(ticketId: string, command: TicketCommand, caller: Caller): Promise<void> {
    try {
      await this.ledger.execute(ticketDecider, ticketId, command, { actor: { id: caller.userId, role: caller.role } });
    } catch (err) {
      if (err instanceof TicketError) throw new HttpError(status[err.code], err.message);
      throw err;
    }
    await this.notify(ticketId);
  }

  async notify(ticketId: string): Promise<void> {
    const ticket = await this.find(ticketId);
    if (!ticket) return;
    const payload = { ticketId, status: ticket.status };
    this.hub.publish(ticket.user_id, 'tickets', payload);
    if (ticket.assigned_worker_id) this.hub.publish(ticket.assigned_worker_id, 'tickets', payload);
  }

  async conversation(ticketId: string) {
    const responses = await responsesOf(this.db, ticketId);
    const attachments = await attachmentsOf(this.db, ticketId);
    return { responses: responses.map(responseJson), attachments: attachments.map(attachmentJson) };
  }

  /**
   * One page of tickets, oldest or newest first, and how many match: a customer's own
   * (`userId`), a worker's (`workerId`) or the unassigned queue (`workerId: null`).
   */
  page(filter: TicketFilter, order: 'asc' | 'desc', page: number, perPage: number): Promise<{ rows: TicketRow[]; totalCount: number }> {
    return ticketPage(this.db, filter, order, page, perPage);
  }

  emails(userIds: string[]): Promise<Record<string, string>> {
    return emailsOf(this.db, userIds);
  }
}

const iso = (d: Date | string) => new Date(d).toISOString();

export function ticketJson(t: TicketRow) {
  return {
    id: t.id,
    user_id: t.user_id,
    subject: t.subject,
    message: t.message,
    urgency: t.urgency,
    status: t.status,
    created_at: iso(t.created_at),
    assigned_worker_id: t.assigned_worker_id,
    updated_at: iso(t.updated_at),
  };
}

export function responseJson(r: ResponseRow) {
  return {
    id: r.id,
    ticket_id: r.ticket_id,
    user_id: r.user_id,
    message: r.message,
    created_at: iso(r.created_at),
    is_from_worker: r.is_from_worker,
  };
}

export function attachmentJson(a: AttachmentRow) {
  return {
    id: a.id,
    ticket_id: a.ticket_id,
    response_id: a.response_id,
    file_name: a.file_name,
    file_type: a.file_type,
    file_size: a.file_size,
    uploaded_at: iso(a.uploaded_at),
    is_from_worker: a.is_from_worker,
    storage_path: a.storage_path,
    uploaded_by: a.uploaded_by,
    opening: a.opening,
  };
}
