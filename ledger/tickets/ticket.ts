import { z } from 'zod';
import { unknownCommand, type Decider } from '../decider.js';

/**
 * A support ticket and its conversation: `ticket-{ticketId}` (spec 001 "Support Tickets",
 * spec 002 "Support Tickets (worker view)"). Attachments are recorded by blob id and
 * digest; the bytes stay in the blob store.
 */
export const TICKET_STREAM_PREFIX = 'ticket-';

export const Urgency = z.enum(['low', 'medium', 'high']);
export type Urgency = z.infer<typeof Urgency>;
export const TicketStatus = z.enum(['open', 'in_progress', 'resolved']);
export type TicketStatus = z.infer<typeof TicketStatus>;

export const SUBJECT_MAX = 200;
export const MESSAGE_MAX = 5000;

const AttachmentData = z.object({
  attachmentId: z.uuid(),
  uploadedBy: z.uuid(),
  fromWorker: z.boolean(),
  /** Set when uploaded for a response that already exists; otherwise linked later. */
  responseId: z.uuid().nullable(),
  /** Uploaded by the customer before any response: it belongs to the opening message. */
  opening: z.boolean(),
  fileName: z.string().min(1).max(255),
  fileType: z.string(),
  fileSize: z.number().int().nonnegative(),
  blobId: z.uuid(),
  sha256: z.string(),
});

export const ticketEventSchemas = {
  'ticket.opened': {
    version: 1,
    schema: z.object({
      customerId: z.uuid(),
      subject: z.string().min(1).max(SUBJECT_MAX),
      message: z.string().min(1).max(MESSAGE_MAX),
      urgency: Urgency,
      /** The worker who owns the customer, or null: the ticket waits in the managers' queue. */
      assignedWorkerId: z.uuid().nullable(),
    }),
  },
  'ticket.assigned': { version: 1, schema: z.object({ workerId: z.uuid() }) },
  'ticket.response-posted': {
    version: 1,
    schema: z.object({ responseId: z.uuid(), authorId: z.uuid(), fromWorker: z.boolean(), message: z.string().max(MESSAGE_MAX) }),
  },
  'ticket.attachment-added': { version: 1, schema: AttachmentData },
  'ticket.attachment-removed': { version: 1, schema: z.object({ attachmentId: z.uuid() }) },
  'ticket.attachment-linked': { version: 1, schema: z.object({ attachmentId: z.uuid(), responseId: z.uuid() }) },
  /** Who changed it is the event's actor; `cause` says whether by hand or by a reply. */
  'ticket.status-changed': {
    version: 1,
    schema: z.object({ from: TicketStatus, to: TicketStatus, cause: z.enum(['staff', 'worker-reply', 'customer-reply']) }),
  },
} as const;

type Data<T extends keyof typeof ticketEventSchemas> = z.infer<(typeof ticketEventSchemas)[T]['schema']>;
export type TicketEvent = { [T in keyof typeof ticketEventSchemas]: { type: T; data: Data<T> } }[keyof typeof ticketEventSchemas];
export type AttachmentAdded = Data<'ticket.attachment-added'>;

export function isTicketEventType(type: string): type is TicketEvent['type'] {
  return type in ticketEventSchemas;
}

export type TicketCommand =
  | { type: 'Open'; customerId: string; subject: string; message: string; urgency: Urgency; assignedWorkerId: string | null }
  /** `queuedOnly`: a no-op when someone already has the ticket (the claim policy). */
  | { type: 'Assign'; workerId: string; queuedOnly?: boolean }
  | { type: 'PostResponse'; responseId: string; authorId: string; fromWorker: boolean; message: string }
  | { type: 'AddAttachment'; attachment: Omit<AttachmentAdded, 'opening'> }
  | { type: 'RemoveAttachment'; attachmentId: string; by: string }
  | { type: 'LinkAttachment'; attachmentId: string; responseId: string; by: string }
  | { type: 'ChangeStatus'; to: TicketStatus };

interface AttachmentState {
  uploadedBy: string;
  responseId: string | null;
  opening: boolean;
}

export interface TicketState {
  opened: boolean;
  customerId: string | null;
  assignedWorkerId: string | null;
  status: TicketStatus;
  /** Who spoke last: null before any response (the customer's opening message). */
  lastFromWorker: boolean | null;
  /** response id -> its author */
  responses: Map<string, string>;
  attachments: Map<string, AttachmentState>;
}

export class TicketError extends Error {
  constructor(
    readonly code: 'not_found' | 'invalid' | 'forbidden' | 'conflict',
    message: string,
  ) {
    super(message);
    this.name = 'TicketError';
  }
}

export const TICKET_TEXT = {
  subjectRequired: 'Please enter a subject for your ticket',
  messageRequired: 'Please provide a message describing your issue',
  waitForSupport: 'Please wait for support to respond before sending another message',
  replyEmpty: 'Please enter a message or attach a file.',
  notFound: 'Ticket not found.',
  attachmentNotFound: 'Attachment not found.',
} as const;

export const initialTicketState = (): TicketState => ({
  opened: false,
  customerId: null,
  assignedWorkerId: null,
  status: 'open',
  lastFromWorker: null,
  responses: new Map(),
  attachments: new Map(),
});

export function evolveTicket(state: TicketState, event: TicketEvent): TicketState {
  switch (event.type) {
    case 'ticket.opened':
      return { ...state, opened: true, customerId: event.data.customerId, assignedWorkerId: event.data.assignedWorkerId, status: 'open' };
    case 'ticket.assigned':
      return { ...state, assignedWorkerId: event.data.workerId };
    case 'ticket.response-posted': {
      const responses = new Map(state.responses).set(event.data.responseId, event.data.authorId);
      return { ...state, responses, lastFromWorker: event.data.fromWorker };
    }
    case 'ticket.attachment-added': {
      const attachments = new Map(state.attachments).set(event.data.attachmentId, {
        uploadedBy: event.data.uploadedBy,
        responseId: event.data.responseId,
        opening: event.data.opening,
      });
      return { ...state, attachments };
    }
    case 'ticket.attachment-removed': {
      const attachments = new Map(state.attachments);
      attachments.delete(event.data.attachmentId);
      return { ...state, attachments };
    }
    case 'ticket.attachment-linked': {
      const current = state.attachments.get(event.data.attachmentId);
      if (!current) return state;
      const attachments = new Map(state.attachments).set(event.data.attachmentId, { ...current, responseId: event.data.responseId });
      return { ...state, attachments };
    }
    case 'ticket.status-changed':
      return { ...state, status: event.data.to };
  }
}

/** May the customer speak now? Only when support spoke last (spec 001 section 4). */
export function customerMayReply(state: Pick<TicketState, 'lastFromWorker'>): boolean {
  return state.lastFromWorker === true;
}

type Command<T extends TicketCommand['type']> = Extract<TicketCommand, { type: T }>;

function open(command: Command<'Open'>, state: TicketState): TicketEvent[] {
  if (state.opened) throw new TicketError('conflict', 'This ticket already exists.');
  const subject = command.subject.trim();
  const message = command.message.trim();
  if (!subject) throw new TicketError('invalid', TICKET_TEXT.subjectRequired);
  if (!message) throw new TicketError('invalid', TICKET_TEXT.messageRequired);
  return [
    {
      type: 'ticket.opened',
      data: { customerId: command.customerId, subject, message, urgency: command.urgency, assignedWorkerId: command.assignedWorkerId },
    },
  ];
}

function assign(command: Command<'Assign'>, state: TicketState): TicketEvent[] {
  if (state.assignedWorkerId === command.workerId) return [];
  if (command.queuedOnly && state.assignedWorkerId !== null) return [];
  return [{ type: 'ticket.assigned', data: { workerId: command.workerId } }];
}

function postResponse(command: Command<'PostResponse'>, state: TicketState): TicketEvent[] {
  const message = command.message.trim();
  const pending = [...state.attachments.values()].some((a) => a.uploadedBy === command.authorId && a.responseId === null && !a.opening);
  if (!message && !pending) throw new TicketError('invalid', TICKET_TEXT.replyEmpty);
  if (!command.fromWorker && !customerMayReply(state)) throw new TicketError('conflict', TICKET_TEXT.waitForSupport);
  const events: TicketEvent[] = [
    {
      type: 'ticket.response-posted',
      data: { responseId: command.responseId, authorId: command.authorId, fromWorker: command.fromWorker, message },
    },
  ];
  // A worker's reply means the ticket is being worked on; a reply on a resolved ticket re-opens it.
  if (command.fromWorker && state.status !== 'in_progress') {
    events.push({ type: 'ticket.status-changed', data: { from: state.status, to: 'in_progress', cause: 'worker-reply' } });
  } else if (!command.fromWorker && state.status === 'resolved') {
    events.push({ type: 'ticket.status-changed', data: { from: 'resolved', to: 'open', cause: 'customer-reply' } });
  }
  return events;
}

function addAttachment(command: Command<'AddAttachment'>, state: TicketState): TicketEvent[] {
  const a = command.attachment;
  if (state.attachments.has(a.attachmentId)) return [];
  const opening = a.uploadedBy === state.customerId && state.lastFromWorker === null && a.responseId === null;
  if (a.responseId !== null && state.responses.get(a.responseId) !== a.uploadedBy)
    throw new TicketError('forbidden', 'You can only attach files to your own message.');
  if (a.uploadedBy === state.customerId && !opening && !customerMayReply(state) && a.responseId === null) {
    throw new TicketError('conflict', TICKET_TEXT.waitForSupport);
  }
  return [{ type: 'ticket.attachment-added', data: { ...a, opening } }];
}

function removeAttachment(command: Command<'RemoveAttachment'>, state: TicketState): TicketEvent[] {
  const a = state.attachments.get(command.attachmentId);
  if (!a || a.uploadedBy !== command.by) throw new TicketError('not_found', TICKET_TEXT.attachmentNotFound);
  if (a.responseId !== null || a.opening) throw new TicketError('conflict', 'A sent attachment cannot be removed.');
  return [{ type: 'ticket.attachment-removed', data: { attachmentId: command.attachmentId } }];
}

function linkAttachment(command: Command<'LinkAttachment'>, state: TicketState): TicketEvent[] {
  const a = state.attachments.get(command.attachmentId);
  if (!a || a.uploadedBy !== command.by) throw new TicketError('not_found', TICKET_TEXT.attachmentNotFound);
  if (state.responses.get(command.responseId) !== command.by)
    throw new TicketError('forbidden', 'You can only attach files to your own message.');
  if (a.responseId === command.responseId) return [];
  if (a.responseId !== null || a.opening) throw new TicketError('conflict', 'This attachment already belongs to another message.');
  return [{ type: 'ticket.attachment-linked', data: { attachmentId: command.attachmentId, responseId: command.responseId } }];
}

/** One small function per command; the switch names them all (a command without a case does not compile). */
export function decideTicket(command: TicketCommand, state: TicketState): TicketEvent[] {
  if (command.type === 'Open') return open(command, state);
  if (!state.opened) throw new TicketError('not_found', TICKET_TEXT.notFound);
  switch (command.type) {
    case 'Assign':
      return assign(command, state);
    case 'PostResponse':
      return postResponse(command, state);
    case 'AddAttachment':
      return addAttachment(command, state);
    case 'RemoveAttachment':
      return removeAttachment(command, state);
    case 'LinkAttachment':
      return linkAttachment(command, state);
    case 'ChangeStatus':
      return state.status === command.to
        ? []
        : [{ type: 'ticket.status-changed', data: { from: state.status, to: command.to, cause: 'staff' } }];
    default:
      return unknownCommand(command);
  }
}

export const ticketDecider: Decider<TicketCommand, TicketEvent, TicketState> = {
  category: 'ticket',
  initialState: initialTicketState,
  evolve: evolveTicket,
  decide: decideTicket,
  schemas: ticketEventSchemas,
};
