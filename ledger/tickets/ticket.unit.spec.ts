import { describe, expect, it } from 'vitest';
import { decideTicket, evolveTicket, initialTicketState, TicketError, type TicketCommand, type TicketEvent } from './ticket.js';

const customer = '00000000-0000-4000-8000-000000000001';
const worker = '00000000-0000-4000-8000-000000000002';
const r1 = '00000000-0000-4000-8000-0000000000a1';
const r2 = '00000000-0000-4000-8000-0000000000a2';
const a1 = '00000000-0000-4000-8000-0000000000b1';
const blob = '00000000-0000-4000-8000-0000000000c1';

/** given events, when command, then events (or the refusal's text) */
function given(events: TicketEvent[]) {
  const state = events.reduce(evolveTicket, initialTicketState());
  return {
    when: (command: TicketCommand) => ({
      then: (expected: TicketEvent[]) => expect(decideTicket(command, state)).toEqual(expected),
      refuses: (message: string) => {
        expect(() => decideTicket(command, state)).toThrow(TicketError);
        expect(() => decideTicket(command, state)).toThrow(message);
      },
    }),
  };
}

const opened: TicketEvent = {
  type: 'ticket.opened',
  data: { customerId: customer, subject: 'Help', message: 'Stuck', urgency: 'medium', assignedWorkerId: worker },
};
const workerReply = (responseId = r1): TicketEvent => ({
  type: 'ticket.response-posted',
  data: { responseId, authorId: worker, fromWorker: true, message: 'On it' },
});
const customerReply = (message = 'Thanks'): TicketCommand => ({
  type: 'PostResponse',
  responseId: r2,
  authorId: customer,
  fromWorker: false,
  message,
});
const file = (uploadedBy: string) => ({
  attachmentId: a1,
  uploadedBy,
  fromWorker: uploadedBy === worker,
  responseId: null,
  fileName: 'a.pdf',
  fileType: 'application/pdf',
  fileSize: 9,
  blobId: blob,
  sha256: 'x',
});

describe('ticket decider', () => {
  it('opening needs a subject and a message, with the spec texts', () => {
    given([])
      .when({ type: 'Open', customerId: customer, subject: ' ', message: 'x', urgency: 'medium', assignedWorkerId: null })
      .refuses('Please enter a subject for your ticket');
    given([])
      .when({ type: 'Open', customerId: customer, subject: 'x', message: '', urgency: 'medium', assignedWorkerId: null })
      .refuses('Please provide a message describing your issue');
  });

  it('the customer speaks again only after support; a worker reply moves an open ticket to in_progress', () => {
    given([opened]).when(customerReply()).refuses('Please wait for support to respond before sending another message');
    given([opened])
      .when({ type: 'PostResponse', responseId: r1, authorId: worker, fromWorker: true, message: 'On it' })
      .then([workerReply(), { type: 'ticket.status-changed', data: { from: 'open', to: 'in_progress', cause: 'worker-reply' } }]);
    given([opened, workerReply()])
      .when(customerReply())
      .then([{ type: 'ticket.response-posted', data: { responseId: r2, authorId: customer, fromWorker: false, message: 'Thanks' } }]);
  });

  it('a reply on a resolved ticket re-opens it', () => {
    const resolved: TicketEvent = { type: 'ticket.status-changed', data: { from: 'open', to: 'resolved', cause: 'staff' } };
    given([opened, workerReply(), resolved])
      .when(customerReply())
      .then([
        { type: 'ticket.response-posted', data: { responseId: r2, authorId: customer, fromWorker: false, message: 'Thanks' } },
        { type: 'ticket.status-changed', data: { from: 'resolved', to: 'open', cause: 'customer-reply' } },
      ]);
  });

  it("a customer's file before any response belongs to the opening; an empty reply needs a pending file", () => {
    given([opened])
      .when({ type: 'AddAttachment', attachment: file(customer) })
      .then([{ type: 'ticket.attachment-added', data: { ...file(customer), opening: true } }]);
    given([opened])
      .when({ type: 'PostResponse', responseId: r1, authorId: worker, fromWorker: true, message: '  ' })
      .refuses('Please enter a message or attach a file.');
    const pending: TicketEvent = { type: 'ticket.attachment-added', data: { ...file(worker), opening: false } };
    expect(
      decideTicket(
        { type: 'PostResponse', responseId: r1, authorId: worker, fromWorker: true, message: '' },
        [opened, pending].reduce(evolveTicket, initialTicketState()),
      )[0]!.type,
    ).toBe('ticket.response-posted');
    given([opened, pending]).when({ type: 'RemoveAttachment', attachmentId: a1, by: customer }).refuses('Attachment not found.');
    given([opened, pending, workerReply()])
      .when({ type: 'LinkAttachment', attachmentId: a1, responseId: r1, by: worker })
      .then([{ type: 'ticket.attachment-linked', data: { attachmentId: a1, responseId: r1 } }]);
  });
});
