import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { TicketTables } from '../../db/schema-tickets.js';

/** The read tables of support tickets (projections/tickets.ts writes them); every query takes the database. */

export type TicketRow = Selectable<TicketTables['support_tickets']>;
export type ResponseRow = Selectable<TicketTables['ticket_responses']>;
export type AttachmentRow = Selectable<TicketTables['ticket_attachments']>;

/** Which tickets a page lists: a customer's own (`userId`), a worker's (`workerId`) or the unassigned queue (`workerId: null`). */
export interface TicketFilter {
  userId?: string;
  workerId?: string | null;
  status?: TicketRow['status'];
}

export function findTicket(db: Kysely<DB>, ticketId: string): Promise<TicketRow | undefined> {
  return db.selectFrom('support_tickets').selectAll().where('id', '=', ticketId).executeTakeFirst();
}

/** A ticket's replies, oldest first. */
export function responsesOf(db: Kysely<DB>, ticketId: string): Promise<ResponseRow[]> {
  return db
    .selectFrom('ticket_responses')
    .selectAll()
    .where('ticket_id', '=', ticketId)
    .orderBy('created_at', 'asc')
    .orderBy('id')
    .execute();
}

/** A ticket's files, oldest first. */
export function attachmentsOf(db: Kysely<DB>, ticketId: string): Promise<AttachmentRow[]> {
  return db.selectFrom('ticket_attachments').selectAll().where('ticket_id', '=', ticketId).orderBy('uploaded_at', 'asc').execute();
}

/** One page of tickets, oldest or newest first, and how many match. */
export async function ticketPage(
  db: Kysely<DB>,
  filter: TicketFilter,
  order: 'asc' | 'desc',
  page: number,
  perPage: number,
): Promise<{ rows: TicketRow[]; totalCount: number }> {
  let query = db.selectFrom('support_tickets');
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.workerId === null) query = query.where('assigned_worker_id', 'is', null);
  else if (filter.workerId !== undefined) query = query.where('assigned_worker_id', '=', filter.workerId);
  if (filter.status) query = query.where('status', '=', filter.status);
  const { count } = await query.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll()
    .orderBy('created_at', order)
    .orderBy('id')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return { rows, totalCount: Number(count) };
}

/** The e-mail addresses of these users, by id. */
export async function emailsOf(db: Kysely<DB>, userIds: string[]): Promise<Record<string, string>> {
  if (userIds.length === 0) return {};
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('id', 'in', [...new Set(userIds)])
    .execute();
  return Object.fromEntries(rows.map((r) => [r.id, r.email]));
}

/** The worker who owns this customer now, if any. */
export async function workerOfCustomer(db: Kysely<DB>, customerId: string): Promise<string | null> {
  const row = await db.selectFrom('user_profiles').select('assigned_worker_id').where('user_id', '=', customerId).executeTakeFirst();
  return row?.assigned_worker_id ?? null;
}

/** A reply that a command has just written (it is there: the command waited for the read tables). */
export function writtenResponse(db: Kysely<DB>, responseId: string): Promise<ResponseRow> {
  return db.selectFrom('ticket_responses').selectAll().where('id', '=', responseId).executeTakeFirstOrThrow();
}

export function findAttachment(db: Kysely<DB>, attachmentId: string): Promise<AttachmentRow | undefined> {
  return db.selectFrom('ticket_attachments').selectAll().where('id', '=', attachmentId).executeTakeFirst();
}

/** An attachment that a command has just written or changed. */
export function writtenAttachment(db: Kysely<DB>, attachmentId: string): Promise<AttachmentRow> {
  return db.selectFrom('ticket_attachments').selectAll().where('id', '=', attachmentId).executeTakeFirstOrThrow();
}

/** Queued tickets (no worker yet) whose customer a worker has claimed since: all of them, or of these customers. */
export function queuedTicketsOfClaimedCustomers(
  db: Kysely<DB>,
  customerIds?: string[],
): Promise<Array<{ id: string; workerId: string | null }>> {
  let query = db
    .selectFrom('support_tickets as t')
    .innerJoin('user_profiles as p', 'p.user_id', 't.user_id')
    .select(['t.id', 'p.assigned_worker_id as workerId'])
    .where('t.assigned_worker_id', 'is', null)
    .where('p.assigned_worker_id', 'is not', null);
  if (customerIds) query = query.where('t.user_id', 'in', customerIds);
  return query.execute();
}
