import { deleteJson, getJson, http, patchJson, postJson, toApiError } from '@/lib/api-client.js';

/*
 * Support tickets as both sides call them (docs/api-support.md): the customer's list and
 * create, the worker's list and status, and the conversation with its attachments.
 */

export type Urgency = 'low' | 'medium' | 'high';
export type TicketStatus = 'open' | 'in_progress' | 'resolved';

export type Ticket = {
  id: string;
  user_id: string;
  subject: string;
  message: string;
  urgency: Urgency;
  status: TicketStatus;
  created_at: string;
  assigned_worker_id: string | null;
  user_email?: string | null;
};

export type TicketResponse = {
  id: string;
  ticket_id: string;
  user_id: string;
  message: string;
  created_at: string;
  is_from_worker: boolean;
};

export type TicketAttachment = {
  id: string;
  ticket_id: string;
  response_id: string | null;
  file_name: string;
  file_type: string;
  file_size: number;
  uploaded_at: string;
  is_from_worker: boolean;
  uploaded_by: string;
  /** Sent with the ticket itself. */
  opening: boolean;
};

export type Conversation = { ticket: Ticket; responses: TicketResponse[]; attachments: TicketAttachment[] };

/** Spec 001 section 9 and spec 002 section 9. */
export const TICKETS_PER_PAGE = 5;

export const STATUS_LABEL: Record<TicketStatus, string> = { open: 'Open', in_progress: 'In Progress', resolved: 'Resolved' };
export const URGENCY_LABEL: Record<Urgency, string> = { low: 'Low', medium: 'Medium', high: 'High' };

export function listMyTickets(page: number) {
  return getJson<{ tickets: Ticket[]; totalCount: number }>(`api/v1/support-tickets?page=${page}&perPage=${TICKETS_PER_PAGE}`);
}

export function createTicket(input: { subject: string; message: string; urgency: Urgency; userId: string }) {
  return postJson<Ticket>('functions/v1/create-support-ticket', input);
}

export function getWorkerTickets(workerId: string, page: number, status: TicketStatus | null) {
  return postJson<{ tickets: Ticket[]; userEmails: Record<string, string>; totalCount: number }>('functions/v1/get-worker-tickets', {
    workerId,
    page,
    perPage: TICKETS_PER_PAGE,
    ...(status ? { status } : {}),
  });
}

export function updateTicketStatus(ticketId: string, status: TicketStatus, userId: string) {
  return postJson<{ success: boolean; ticket: Ticket }>('functions/v1/update-ticket-status', { ticketId, status, userId });
}

export function getConversation(ticketId: string) {
  return getJson<Conversation>(`api/v1/support-tickets/${ticketId}`);
}

export function postResponse(ticketId: string, message: string) {
  return postJson<{ response: TicketResponse; ticket: Ticket }>('api/v1/ticket-responses', { ticket_id: ticketId, message });
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
  return deleteJson<{ success: boolean }>(`api/v1/ticket-attachments/${id}`);
}

export function linkAttachment(id: string, responseId: string) {
  return patchJson<TicketAttachment>(`api/v1/ticket-attachments/${id}`, { response_id: responseId });
}

/** The file's bytes, fetched with the user's token (never a public address). */
export async function fetchAttachment(id: string, download = false): Promise<Blob> {
  try {
    return await http.get(`functions/v1/get-ticket-attachment?id=${id}${download ? '&download=1' : ''}`, { timeout: 120_000 }).blob();
  } catch (error) {
    throw await toApiError(error);
  }
}
