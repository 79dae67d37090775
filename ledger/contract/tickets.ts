import { z } from 'zod';
import { Bytes } from './common.js';

/*
 * Support tickets (spec 001 section 5, spec 002's Tickets tab): tickets, the conversation,
 * attachments, with the page size, the attachment limits and their texts.
 */

import { MESSAGE_MAX, SUBJECT_MAX, TicketStatus, Urgency } from '../tickets/ticket.js';

export { TICKET_TEXT } from '../tickets/ticket.js';

/** Tickets per page of the customer's list, the worker's list and the manager's queue. */
export const TICKETS_PER_PAGE = 5;

/** The paging of the ticket lists (spec 001 section 9 and spec 002 section 9: 5 tickets per page). */
export const TicketPaging = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1).max(50).default(TICKETS_PER_PAGE),
};

/** The customer's list and the manager's queue: one page. */
export const TicketPageQuery = z.object(TicketPaging);

/** create-support-ticket: a customer's new ticket (empty fields are refused with the spec's texts). */
export const CreateTicketBody = z.object({
  subject: z.string().max(SUBJECT_MAX).default(''),
  message: z.string().max(MESSAGE_MAX).default(''),
  urgency: Urgency.default('medium'),
  userId: z.uuid().optional(),
});

/** get-worker-tickets: one page of a worker's tickets, all or of one status. */
export const WorkerTicketsBody = z.object({ workerId: z.uuid(), status: TicketStatus.optional(), ...TicketPaging });

/** update-ticket-status: the assigned worker's change of a ticket's status. */
export const UpdateTicketStatusBody = z.object({ ticketId: z.uuid(), status: TicketStatus, userId: z.uuid().optional() });

/** assign-ticket: a ticket of the queue given to one of the manager's workers. */
export const AssignTicketBody = z.object({ ticketId: z.uuid(), workerId: z.uuid() });

/** The conversation's reads (responses, attachments): of one ticket. */
export const TicketIdQuery = z.object({ ticket_id: z.uuid() });

/** A reply to a ticket. */
export const PostResponseBody = z.object({ ticket_id: z.uuid(), message: z.string().max(MESSAGE_MAX).default('') });

/** Links an uploaded attachment to the reply it belongs to. */
export const LinkAttachmentBody = z.object({ response_id: z.uuid() });

/** get-ticket-attachment: an attachment's bytes, shown or (with download) saved. */
export const TicketAttachmentQuery = z.object({ id: z.uuid(), download: z.enum(['1', 'true']).optional() });

/** Spec 001 section 5, "Attachments". */
export const ATTACHMENT_EXTENSIONS = [
  'jpeg',
  'jpg',
  'png',
  'gif',
  'webp',
  'pdf',
  'txt',
  'csv',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'zip',
] as const;
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const ATTACHMENT_TEXT = {
  tooLarge: (name: string) => `File "${name}" is too large. Maximum size is 10MB.`,
  format: (ext: string) =>
    `Format not supported: .${ext.toUpperCase() || '?'}. Supported formats: JPEG, JPG, PNG, GIF, WebP, PDF, TXT, CSV, DOC, DOCX, XLS, XLSX, ZIP.`,
  content: (name: string, ext: string) => `File "${name}" is not a valid .${ext.toUpperCase()} file.`,
  missingFile: 'No file was sent.',
  missingTicket: 'ticketId is required.',
  unreadable: 'Upload failed',
  empty: (name: string) => `File "${name}" is empty.`,
} as const;

export const TicketView = z.object({
  id: z.string(),
  user_id: z.string(),
  subject: z.string(),
  message: z.string(),
  urgency: z.enum(['low', 'medium', 'high']),
  status: z.enum(['open', 'in_progress', 'resolved']),
  created_at: z.string(),
  assigned_worker_id: z.string().nullable(),
  updated_at: z.string(),
});

export const TicketResponse = z.object({
  id: z.string(),
  ticket_id: z.string(),
  user_id: z.string(),
  message: z.string(),
  created_at: z.string(),
  is_from_worker: z.boolean(),
});

export const TicketAttachment = z.object({
  id: z.string(),
  ticket_id: z.string(),
  response_id: z.string().nullable(),
  file_name: z.string(),
  file_type: z.string(),
  file_size: z.number(),
  uploaded_at: z.string(),
  is_from_worker: z.boolean(),
  storage_path: z.string(),
  uploaded_by: z.string(),
  opening: z.boolean(),
});

/** A page of tickets; staff lists add the customers' addresses by user id. */
export const TicketPage = z.object({
  tickets: z.array(TicketView),
  totalCount: z.number(),
  userEmails: z.record(z.string(), z.string()).optional(),
});

export const TicketChange = z.object({ success: z.boolean(), ticket: TicketView });

/** A ticket with its customer's address and the whole conversation. */
export const TicketThread = z.object({
  ticket: TicketView.extend({ user_email: z.string().nullable() }),
  responses: z.array(TicketResponse),
  attachments: z.array(TicketAttachment),
});

export const ResponseAdded = z.object({ response: TicketResponse, ticket: TicketView });

export const AttachmentFile = Bytes('the attachment as uploaded');
