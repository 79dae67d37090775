import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Done } from '@ledger/contract/common.js';
import {
  TicketAttachment as TicketAttachmentSchema,
  TicketPage,
  type ResponseAdded,
  type TicketChange,
  TicketResponse as TicketResponseSchema,
  TicketThread,
  TicketView,
  TICKETS_PER_PAGE,
  type CreateTicketBody,
  type LinkAttachmentBody,
  type PostResponseBody,
  type TicketPageQuery,
  type UpdateTicketStatusBody,
  type WorkerTicketsBody,
} from '@ledger/contract/tickets.js';
import { deleteJson, getJson, http, patchJson, postJson, toApiError } from '@/lib/api-client.js';
import { parseAnswer } from '@/lib/query.js';
import { useRefetchOn } from '@/lib/query-realtime.js';

/*
 * Support tickets as both sides call them (docs/api-support.md): the customer's list and
 * create, the worker's list and status, the manager's queue, and the conversation with its
 * attachments. The answers are parsed with the tickets contract's schemas.
 */

export type Urgency = z.infer<typeof TicketView>['urgency'];
export type TicketStatus = z.infer<typeof TicketView>['status'];
/** A ticket; the conversation's carries its customer's address. */
export type Ticket = z.infer<typeof TicketView> & { user_email?: string | null };
export type TicketResponse = z.infer<typeof TicketResponseSchema>;
export type TicketAttachment = z.infer<typeof TicketAttachmentSchema>;
export type Conversation = z.infer<typeof TicketThread>;
/** A page of tickets; the staff lists add the customers' addresses by user id. */
export type TicketsPage = { tickets: Ticket[]; totalCount: number; userEmails: Record<string, string> };

/** Spec 001 section 9 and spec 002 section 9. */
export { TICKETS_PER_PAGE };

export const STATUS_LABEL: Record<TicketStatus, string> = { open: 'Open', in_progress: 'In Progress', resolved: 'Resolved' };
export const URGENCY_LABEL: Record<Urgency, string> = { low: 'Low', medium: 'Medium', high: 'High' };

/** What a ticket answer that does not match the contract shows. */
const UNREADABLE = 'The tickets could not be read.';

/** The tickets' cached reads; a realtime 'tickets' hint marks them all stale. */
export const ticketKeys = {
  all: ['tickets'] as const,
  mine: (page: number) => ['tickets', 'mine', page] as const,
  workerLists: ['tickets', 'worker'] as const,
  worker: (workerId: string | null, page: number, status: TicketStatus | null) => ['tickets', 'worker', workerId, page, status] as const,
  unassigned: ['tickets', 'unassigned'] as const,
  unassignedPage: (page: number) => ['tickets', 'unassigned', page] as const,
  conversation: (ticketId: string) => ['tickets', 'conversation', ticketId] as const,
  attachment: (id: string) => ['tickets', 'attachment', id] as const,
};

async function ticketsPage(answer: Promise<unknown>): Promise<TicketsPage> {
  const page = parseAnswer(TicketPage, await answer, UNREADABLE);
  return { tickets: page.tickets, totalCount: page.totalCount, userEmails: page.userEmails ?? {} };
}

/** The query of one page of a ticket list. */
const onePage = (page: number) => ({ page, perPage: TICKETS_PER_PAGE }) satisfies z.input<typeof TicketPageQuery>;

export function listMyTickets(page: number, signal?: AbortSignal): Promise<TicketsPage> {
  return ticketsPage(getJson('api/v1/support-tickets', { signal, searchParams: onePage(page) }));
}

export function getWorkerTickets(workerId: string, page: number, status: TicketStatus | null, signal?: AbortSignal) {
  const body: z.input<typeof WorkerTicketsBody> = { workerId, page, perPage: TICKETS_PER_PAGE, ...(status ? { status } : {}) };
  return ticketsPage(postJson('functions/v1/get-worker-tickets', body, { signal }));
}

export function listUnassignedTickets(page: number, signal?: AbortSignal): Promise<TicketsPage> {
  return ticketsPage(getJson('api/v1/support-tickets/unassigned', { signal, searchParams: onePage(page) }));
}

export async function getConversation(ticketId: string, signal?: AbortSignal): Promise<Conversation> {
  return parseAnswer(TicketThread, await getJson(`api/v1/support-tickets/${ticketId}`, { signal }), UNREADABLE);
}

/** The customer's tickets, newest first, one page; read again on a realtime 'tickets' hint. */
export function useMyTickets(page: number) {
  useRefetchOn('tickets', [ticketKeys.mine(page)]);
  return useQuery({
    queryKey: ticketKeys.mine(page),
    queryFn: ({ signal }) => listMyTickets(page, signal),
    placeholderData: keepPreviousData,
  });
}

/** The tickets assigned to a worker, one page, all or of one status; read again on a realtime 'tickets' hint. */
export function useWorkerTickets(workerId: string | null, page: number, status: TicketStatus | null) {
  const queryKey = ticketKeys.worker(workerId, page, status);
  useRefetchOn('tickets', [queryKey]);
  return useQuery({
    queryKey,
    enabled: workerId !== null,
    queryFn: ({ signal }) => getWorkerTickets(workerId!, page, status, signal),
    placeholderData: keepPreviousData,
  });
}

/** The manager's queue of tickets no worker owns, oldest first, one page. */
export function useUnassignedTickets(page: number) {
  return useQuery({
    queryKey: ticketKeys.unassignedPage(page),
    queryFn: ({ signal }) => listUnassignedTickets(page, signal),
    placeholderData: keepPreviousData,
  });
}

/** A ticket with its messages and files (the realtime hint is the conversation's own business). */
export function useConversation(ticketId: string) {
  return useQuery({ queryKey: ticketKeys.conversation(ticketId), queryFn: ({ signal }) => getConversation(ticketId, signal) });
}

export function createTicket(input: z.input<typeof CreateTicketBody>) {
  return postJson<Ticket>('functions/v1/create-support-ticket', input);
}

export function updateTicketStatus(ticketId: string, status: TicketStatus, userId: string) {
  const body: z.input<typeof UpdateTicketStatusBody> = { ticketId, status, userId };
  return postJson<z.infer<typeof TicketChange>>('functions/v1/update-ticket-status', body);
}

export function postResponse(ticketId: string, message: string) {
  const body: z.input<typeof PostResponseBody> = { ticket_id: ticketId, message };
  return postJson<z.infer<typeof ResponseAdded>>('api/v1/ticket-responses', body);
}

export async function uploadAttachment(ticketId: string, file: File, responseId?: string): Promise<TicketAttachment> {
  // The fields go before the file, so that the server knows the ticket before it reads the bytes.
  const form = new FormData();
  form.append('ticketId', ticketId);
  if (responseId) form.append('responseId', responseId);
  form.append('file', file, file.name);
  try {
    return await http.post('functions/v1/upload-ticket-attachment', { body: form, timeout: 120_000 }).json<TicketAttachment>();
  } catch (error) {
    throw await toApiError(error);
  }
}

export function removeAttachment(id: string) {
  return deleteJson<z.infer<typeof Done>>(`api/v1/ticket-attachments/${id}`);
}

export function linkAttachment(id: string, responseId: string) {
  const body: z.input<typeof LinkAttachmentBody> = { response_id: responseId };
  return patchJson<TicketAttachment>(`api/v1/ticket-attachments/${id}`, body);
}

/** The file's bytes, fetched with the user's token (never a public address). */
export async function fetchAttachment(id: string, download = false): Promise<Blob> {
  try {
    return await http.get(`functions/v1/get-ticket-attachment?id=${id}${download ? '&download=1' : ''}`, { timeout: 120_000 }).blob();
  } catch (error) {
    throw await toApiError(error);
  }
}
