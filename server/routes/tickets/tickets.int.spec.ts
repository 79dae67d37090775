import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import { ticketDecider } from '../../../ledger/tickets/ticket.js';
import { createTestApp, bearer, registeredCustomer, signIn, type TestApp } from '../../../tests/support/test-app.js';
import { createStaff } from '../../auth/staff-accounts.js';
import { verifyReadModels } from '../../../projections/verify.js';
import { ticketsProjection } from '../../../projections/tickets.js';

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** The start of a Windows executable. */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(126, 0), Buffer.from('PE\0\0'), Buffer.alloc(200, 1)]);

function multipart(fields: Record<string, string>, file?: { name: string; data: Buffer; type?: string }) {
  const boundary = '----ticket-test-boundary';
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${file.name}"\r\ncontent-type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    chunks.push(file.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('support tickets', () => {
  let t: TestApp;
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const staffSession = async (role: 'WORKER' | 'MANAGER', email: string) => {
    const { userId, password } = await createStaff(t.app.authServices.accounts, { email, fullName: `${role} ${email}`, role });
    const first = await signIn(t, email, password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'staff-own-pass-1' } });
    return { userId, ...(await signIn(t, email, 'staff-own-pass-1')) };
  };
  const claim = (customerId: string, workerId: string) =>
    t.app.authServices.accounts.record(customerId, { type: 'Claim', workerId }, { id: workerId, role: 'WORKER' });
  const upload = (token: string, ticketId: string, file: { name: string; data: Buffer }, extra: Record<string, string> = {}) =>
    inject({ method: 'POST', url: '/functions/v1/upload-ticket-attachment', ...withAuth(multipart({ ticketId, ...extra }, file), token) });
  const withAuth = (m: ReturnType<typeof multipart>, token: string) => ({
    payload: m.payload,
    headers: { ...m.headers, ...bearer(token) },
  });
  const open = async (token: string, subject = 'Cannot withdraw', message = 'My withdrawal is stuck.') =>
    inject({ method: 'POST', url: '/functions/v1/create-support-ticket', headers: bearer(token), payload: { subject, message } });

  let worker: Awaited<ReturnType<typeof staffSession>>;
  let otherWorker: Awaited<ReturnType<typeof staffSession>>;
  let manager: Awaited<ReturnType<typeof staffSession>>;
  let alice: Awaited<ReturnType<typeof registeredCustomer>>;
  let bob: Awaited<ReturnType<typeof registeredCustomer>>;

  beforeAll(async () => {
    t = await createTestApp();
    worker = await staffSession('WORKER', 'wendy@example.com');
    otherWorker = await staffSession('WORKER', 'walter@example.com');
    manager = await staffSession('MANAGER', 'mona@example.com');
    await t.app.authServices.accounts.record(
      worker.userId,
      { type: 'AssignToManager', managerId: manager.userId },
      { id: manager.userId, role: 'MANAGER' },
    );
    alice = await registeredCustomer(t, 'alice@example.com', 'alice-pass-1');
    bob = await registeredCustomer(t, 'bob@example.com', 'bob-pass-12');
    await claim(alice.user.id, worker.userId);
    await claim(bob.user.id, otherWorker.userId);
  }, 180_000);
  afterAll(async () => {
    // Rebuilt from the log, the ticket tables equal what the live projection wrote.
    if (t) {
      const report = await verifyReadModels(t.database.db, t.app.ledger.store, { projections: [ticketsProjection] });
      const diffs = report.projections.flatMap((p) => p.tables).filter((x) => x.onlyLive.length || x.onlyRebuilt.length);
      expect(diffs).toEqual([]);
      expect(report.projections[0]!.tables.map((x) => x.liveRows).every((n) => n > 0)).toBe(true);
    }
    await t?.close();
  }, 120_000);

  it('a ticket goes to the owning worker; the conversation, status and reply rules hold on the server', async () => {
    const missing = await open(alice.access_token, '  ', 'x');
    expect([missing.statusCode, missing.json()]).toEqual([400, { error: 'Please enter a subject for your ticket' }]);
    expect((await open(alice.access_token, 'Hello', '')).json()).toEqual({ error: 'Please provide a message describing your issue' });

    const created = await open(alice.access_token);
    expect(created.statusCode).toBe(200);
    const ticket = created.json();
    expect(ticket).toMatchObject({ user_id: alice.user.id, urgency: 'medium', status: 'open', assigned_worker_id: worker.userId });

    const list = (await inject({ method: 'GET', url: '/api/v1/support-tickets', headers: bearer(alice.access_token) })).json();
    expect(list.tickets.map((x: { id: string }) => x.id)).toEqual([ticket.id]);

    // The customer waits for support before speaking again.
    const early = await inject({
      method: 'POST',
      url: '/api/v1/ticket-responses',
      headers: bearer(alice.access_token),
      payload: { ticket_id: ticket.id, message: 'Any news?' },
    });
    expect([early.statusCode, early.json()]).toEqual([409, { error: 'Please wait for support to respond before sending another message' }]);

    const mine = (
      await inject({
        method: 'POST',
        url: '/functions/v1/get-worker-tickets',
        headers: bearer(worker.access_token),
        payload: { workerId: worker.userId },
      })
    ).json();
    expect(mine).toMatchObject({ totalCount: 1, userEmails: { [alice.user.id]: 'alice@example.com' } });

    const reply = await inject({
      method: 'POST',
      url: '/api/v1/ticket-responses',
      headers: bearer(worker.access_token),
      payload: { ticket_id: ticket.id, message: 'Looking into it.' },
    });
    expect(reply.json()).toMatchObject({ response: { is_from_worker: true }, ticket: { status: 'in_progress' } });

    const answer = await inject({
      method: 'POST',
      url: '/api/v1/ticket-responses',
      headers: bearer(alice.access_token),
      payload: { ticket_id: ticket.id, message: 'Thanks!' },
    });
    expect(answer.statusCode).toBe(200);

    const resolved = await inject({
      method: 'POST',
      url: '/functions/v1/update-ticket-status',
      headers: bearer(worker.access_token),
      payload: { ticketId: ticket.id, status: 'resolved', userId: worker.userId },
    });
    expect(resolved.json()).toMatchObject({ success: true, ticket: { status: 'resolved' } });
    const byCustomer = await inject({
      method: 'POST',
      url: '/functions/v1/update-ticket-status',
      headers: bearer(alice.access_token),
      payload: { ticketId: ticket.id, status: 'open' },
    });
    expect(byCustomer.statusCode).toBe(403);

    // A worker's reply on a resolved ticket re-opens it.
    const again = await inject({
      method: 'POST',
      url: '/api/v1/ticket-responses',
      headers: bearer(worker.access_token),
      payload: { ticket_id: ticket.id, message: 'One more thing.' },
    });
    expect(again.json().ticket.status).toBe('in_progress');

    const events = await t.app.ledger.store.readStream(`ticket-${ticket.id}`);
    expect(events.map((e) => [e.type, e.metadata.actorRole])).toEqual([
      ['ticket.opened', 'USER'],
      ['ticket.response-posted', 'WORKER'],
      ['ticket.status-changed', 'WORKER'],
      ['ticket.response-posted', 'USER'],
      ['ticket.status-changed', 'WORKER'],
      ['ticket.response-posted', 'WORKER'],
      ['ticket.status-changed', 'WORKER'],
    ]);
  });

  it('nobody else reads a ticket or its attachments: another customer, another worker', async () => {
    const ticket = (await open(alice.access_token, 'Card', 'Card declined')).json();
    const pdf = await upload(alice.access_token, ticket.id, { name: 'statement.pdf', data: PDF });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.json()).toMatchObject({
      file_name: 'statement.pdf',
      file_type: 'application/pdf',
      response_id: null,
      opening: true,
      is_from_worker: false,
    });

    for (const token of [bob.access_token, otherWorker.access_token, manager.access_token]) {
      expect((await inject({ method: 'GET', url: `/api/v1/support-tickets/${ticket.id}`, headers: bearer(token) })).statusCode).toBe(404);
      const file = await inject({ method: 'GET', url: `/functions/v1/get-ticket-attachment?id=${pdf.json().id}`, headers: bearer(token) });
      expect([file.statusCode, file.body.includes('%PDF')]).toEqual([404, false]);
      expect((await upload(token, ticket.id, { name: 'x.png', data: PNG })).statusCode).toBe(404);
    }
    const others = await inject({
      method: 'POST',
      url: '/functions/v1/get-worker-tickets',
      headers: bearer(otherWorker.access_token),
      payload: { workerId: worker.userId },
    });
    expect(others.statusCode).toBe(403);
    expect((await inject({ method: 'GET', url: '/api/v1/support-tickets', headers: bearer(bob.access_token) })).json().tickets).toEqual([]);

    for (const token of [alice.access_token, worker.access_token]) {
      const file = await inject({ method: 'GET', url: `/functions/v1/get-ticket-attachment?id=${pdf.json().id}`, headers: bearer(token) });
      expect([file.statusCode, file.headers['content-type'], file.headers['content-disposition']]).toEqual([
        200,
        'application/pdf',
        "inline; filename*=UTF-8''statement.pdf",
      ]);
      expect(file.rawPayload.equals(PDF)).toBe(true);
    }
  });

  it('uploads are checked by content and size with the spec texts; a pending upload is removed with its blob; linking joins it to the reply', async () => {
    const ticket = (await open(alice.access_token, 'Upload', 'Files')).json();
    const exe = await upload(alice.access_token, ticket.id, { name: 'photo.png', data: EXE });
    expect([exe.statusCode, exe.json()]).toEqual([400, { error: 'File "photo.png" is not a valid .PNG file.' }]);
    const big = await upload(alice.access_token, ticket.id, {
      name: 'big.pdf',
      data: Buffer.concat([PDF, Buffer.alloc(11 * 1024 * 1024, 32)]),
    });
    expect([big.statusCode, big.json()]).toEqual([413, { error: 'File "big.pdf" is too large. Maximum size is 10MB.' }]);
    const exeName = await upload(alice.access_token, ticket.id, { name: 'setup.exe', data: EXE });
    expect(exeName.json().error).toMatch(/^Format not supported: \.EXE\. Supported formats: /);
    const blobCount = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('blobs')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const blobsBefore = await blobCount();

    // The worker uploads for a reply, removes one, sends the reply with the other.
    const keep = (await upload(worker.access_token, ticket.id, { name: 'steps.png', data: PNG })).json();
    const drop = (await upload(worker.access_token, ticket.id, { name: 'wrong.png', data: PNG })).json();
    expect(await blobCount()).toBe(blobsBefore + 2);
    expect(
      (await inject({ method: 'DELETE', url: `/api/v1/ticket-attachments/${drop.id}`, headers: bearer(alice.access_token) })).statusCode,
    ).toBe(404);
    expect(
      (await inject({ method: 'DELETE', url: `/api/v1/ticket-attachments/${drop.id}`, headers: bearer(worker.access_token) })).statusCode,
    ).toBe(200);
    expect(await blobCount()).toBe(blobsBefore + 1);

    const reply = (
      await inject({
        method: 'POST',
        url: '/api/v1/ticket-responses',
        headers: bearer(worker.access_token),
        payload: { ticket_id: ticket.id, message: '' },
      })
    ).json();
    const linked = await inject({
      method: 'PATCH',
      url: `/api/v1/ticket-attachments/${keep.id}`,
      headers: bearer(worker.access_token),
      payload: { response_id: reply.response.id },
    });
    expect(linked.json()).toMatchObject({ response_id: reply.response.id, is_from_worker: true });
    const convo = (
      await inject({ method: 'GET', url: `/api/v1/support-tickets/${ticket.id}`, headers: bearer(alice.access_token) })
    ).json();
    expect(convo.attachments.map((a: { file_name: string }) => a.file_name)).toEqual(['steps.png']);
    expect(
      (await inject({ method: 'DELETE', url: `/api/v1/ticket-attachments/${keep.id}`, headers: bearer(worker.access_token) })).statusCode,
    ).toBe(409);

    // An empty reply with nothing attached is refused.
    const empty = await inject({
      method: 'POST',
      url: '/api/v1/ticket-responses',
      headers: bearer(alice.access_token),
      payload: { ticket_id: ticket.id, message: '   ' },
    });
    expect(empty.statusCode).toBe(400);
  });

  it('a customer no worker owns lands in the queue; their manager assigns it to a worker of theirs', async () => {
    const carol = await registeredCustomer(t, 'carol@example.com', 'carol-pass-1');
    const ticket = (await open(carol.access_token, 'Help', 'Nobody owns me')).json();
    expect(ticket.assigned_worker_id).toBeNull();
    expect(
      (await inject({ method: 'GET', url: '/api/v1/support-tickets/unassigned', headers: bearer(worker.access_token) })).statusCode,
    ).toBe(403);
    const queue = (
      await inject({ method: 'GET', url: '/api/v1/support-tickets/unassigned', headers: bearer(manager.access_token) })
    ).json();
    expect(queue.tickets.map((x: { id: string }) => x.id)).toContain(ticket.id);
    const notMine = await inject({
      method: 'POST',
      url: '/functions/v1/assign-ticket',
      headers: bearer(manager.access_token),
      payload: { ticketId: ticket.id, workerId: otherWorker.userId },
    });
    expect(notMine.statusCode).toBe(403);
    const assigned = await inject({
      method: 'POST',
      url: '/functions/v1/assign-ticket',
      headers: bearer(manager.access_token),
      payload: { ticketId: ticket.id, workerId: worker.userId },
    });
    expect(assigned.json()).toMatchObject({ success: true, ticket: { assigned_worker_id: worker.userId } });
    expect(
      (await inject({ method: 'GET', url: `/api/v1/support-tickets/${ticket.id}`, headers: bearer(worker.access_token) })).statusCode,
    ).toBe(200);

    // A queued ticket follows a later claim of its customer; an assigned one stays where it is.
    const dave = await registeredCustomer(t, 'dave@example.com', 'dave-pass-12');
    const queued = (await open(dave.access_token, 'Queued', 'Waiting for an owner')).json();
    await claim(dave.user.id, otherWorker.userId);
    await expect
      .poll(
        async () =>
          (
            await t.database.db
              .selectFrom('support_tickets')
              .select('assigned_worker_id')
              .where('id', '=', queued.id)
              .executeTakeFirstOrThrow()
          ).assigned_worker_id,
      )
      .toBe(otherWorker.userId);
    await claim(carol.user.id, otherWorker.userId);
    await new Promise((r) => setTimeout(r, 300));
    const carolTicket = await t.database.db
      .selectFrom('support_tickets')
      .select('assigned_worker_id')
      .where('id', '=', ticket.id)
      .executeTakeFirstOrThrow();
    expect(carolTicket.assigned_worker_id).toBe(worker.userId);
    const assignedEvent = (await t.app.ledger.store.readStream(`ticket-${queued.id}`)).find((e) => e.type === 'ticket.assigned');
    expect(assignedEvent?.metadata.actorRole).toBe('SYSTEM');
  });

  it("a queued ticket whose customer has been claimed meanwhile goes to that customer's worker, not to another team's", async () => {
    const erin = await registeredCustomer(t, 'erin@example.com', 'erin-pass-12');
    await claim(erin.user.id, otherWorker.userId);
    // The race's outcome: the ticket was opened as unowned (ownership read before the claim),
    // and appended after the claim's sweep had looked for queued tickets.
    const ticket = { id: randomUUID() };
    await t.app.ledger.execute(
      ticketDecider,
      ticket.id,
      {
        type: 'Open',
        customerId: erin.user.id,
        subject: 'Help',
        message: 'Opened while being claimed',
        urgency: 'low',
        assignedWorkerId: null,
      },
      { actor: { id: erin.user.id, role: 'USER' } },
    );
    const queue = (
      await inject({ method: 'GET', url: '/api/v1/support-tickets/unassigned', headers: bearer(manager.access_token) })
    ).json();
    expect(queue.tickets.map((x: { id: string }) => x.id)).toContain(ticket.id);

    const refused = await inject({
      method: 'POST',
      url: '/functions/v1/assign-ticket',
      headers: bearer(manager.access_token),
      payload: { ticketId: ticket.id, workerId: worker.userId },
    });
    expect([refused.statusCode, refused.json()]).toEqual([
      409,
      { error: 'This customer has their own worker now; the ticket has gone to them.' },
    ]);
    const row = await t.database.db
      .selectFrom('support_tickets')
      .select('assigned_worker_id')
      .where('id', '=', ticket.id)
      .executeTakeFirstOrThrow();
    expect(row.assigned_worker_id).toBe(otherWorker.userId);
    expect(
      (await inject({ method: 'GET', url: `/api/v1/support-tickets/${ticket.id}`, headers: bearer(worker.access_token) })).statusCode,
    ).toBe(404);
  });
});
