import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  bearer,
  createConfirmedUser,
  expectReachableOnPhone,
  screens,
  uniqueEmail,
  type ApiSession,
  demoManagerSession,
  openAs,
  passwordSession,
  ownSession,
} from './helpers.js';

/*
 * The manager's ticket queue (docs/api-support.md): a customer no worker owns opens a ticket,
 * the manager sees it under Unassigned Tickets and gives it to one of their workers, whose
 * Support Tickets list then holds it.
 */

// The same as in staff-dashboards.e2e.ts, so that either file may trade the one-time password first.

/** A worker of the manager's, signed in with the password they chose. */
async function newWorker(request: APIRequestContext, manager: ApiSession, fullName: string) {
  const email = uniqueEmail('queue-worker');
  const created = await request.post('/functions/v1/create-worker-for-manager', {
    headers: bearer(manager),
    data: { fullName, email, password: 'Given-by-manager-1' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { worker } = (await created.json()) as { worker: { id: string } };
  const session = await ownSession(request, email, 'Given-by-manager-1', 'Worker-own-pass-9');
  return { id: worker.id, email, fullName, session };
}

async function openTicket(request: APIRequestContext, customer: ApiSession, subject: string, urgency: 'low' | 'medium' | 'high') {
  const answer = await request.post('/functions/v1/create-support-ticket', {
    headers: bearer(customer),
    data: { subject, message: `Please help: ${subject}`, urgency },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  const ticket = (await answer.json()) as { id: string; assigned_worker_id: string | null };
  expect(ticket.assigned_worker_id).toBeNull();
  return ticket;
}

function tab(page: Page, dashboard: string, name: string) {
  return page.getByRole('navigation', { name: dashboard }).getByRole('link', { name, exact: true });
}

test('a ticket of an unowned customer waits in the manager queue until the manager assigns it to a worker', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const manager = await demoManagerSession(request);
  const walt = await newWorker(request, manager, 'Walt Queue');
  const wendy = await newWorker(request, manager, 'Wendy Queue');
  const customer = await createConfirmedUser(request, 'unowned', 'Una Owned');
  const customerSession = (await (await passwordSession(request, customer.email, customer.password)).json()) as ApiSession;
  const cardSubject = 'Card payment stuck';
  const raceSubject = 'Cannot change my e-mail';

  // Other suites running beside this one may leave tickets of their own customers in the queue:
  // this test follows its own two.
  await test.step('the queue opens, without the tickets that are not opened yet', async () => {
    await openAs(page, manager, '/dashboard/manager');
    await tab(page, 'Manager Dashboard', 'Unassigned Tickets').click();
    await expect(page).toHaveURL(/\/dashboard\/manager\/unassigned-tickets$/);
    await expect(page.getByRole('heading', { name: 'Unassigned Tickets' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: customer.email })).toHaveCount(0);
  });

  await openTicket(request, customerSession, cardSubject, 'high');
  const race = await openTicket(request, customerSession, raceSubject, 'low');

  await test.step('the manager sees both tickets with the customer e-mail, urgency and date', async () => {
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: cardSubject });
    await expect(row).toContainText(customer.email);
    await expect(row).toContainText('High');
    await expect(row).toContainText(/\d{2} [A-Z][a-z]{2} \d{4}/);
    await expect(page.getByRole('row').filter({ hasText: raceSubject })).toContainText('Low');
    await expect(page.getByText('No unassigned tickets.')).toBeHidden();
    await page.screenshot({ path: `${screens}/manager-unassigned-tickets.png`, fullPage: true });
    // On a phone each ticket is a card, its worker choice and Assign on screen.
    await expectReachableOnPhone(
      page,
      [
        row.getByText(customer.email),
        row.getByRole('combobox', { name: `Worker for ${cardSubject}` }),
        row.getByRole('button', { name: 'Assign' }),
      ],
      'manager-unassigned-tickets-phone.png',
      page.viewportSize()!,
    );
  });

  await test.step('the worker has no tickets yet', async () => {
    const before = await request.post('/functions/v1/get-worker-tickets', { headers: bearer(walt.session), data: { workerId: walt.id } });
    expect(((await before.json()) as { totalCount: number }).totalCount).toBe(0);
  });

  await test.step('assigning a ticket someone else took meanwhile shows an error and drops it from the list', async () => {
    const raceRow = page.getByRole('row').filter({ hasText: raceSubject });
    await raceRow.getByRole('combobox', { name: `Worker for ${raceSubject}` }).selectOption({ label: walt.fullName });
    const taken = await request.post('/functions/v1/assign-ticket', {
      headers: bearer(manager),
      data: { ticketId: race.id, workerId: wendy.id },
    });
    expect(taken.ok(), await taken.text()).toBe(true);
    await raceRow.getByRole('button', { name: 'Assign' }).click();
    await expect(page.getByRole('alert')).toContainText('This ticket is already assigned to a worker.');
    await expect(page.getByRole('row').filter({ hasText: raceSubject })).toHaveCount(0);
  });

  await test.step('the manager assigns the other ticket to Walt; the customer has none left in the queue', async () => {
    const row = page.getByRole('row').filter({ hasText: cardSubject });
    await expect(row.getByRole('button', { name: 'Assign' })).toBeDisabled();
    await row.getByRole('combobox', { name: `Worker for ${cardSubject}` }).selectOption({ label: walt.fullName });
    await row.getByRole('button', { name: 'Assign' }).click();
    await expect(page.getByText(`Ticket "${cardSubject}" assigned to ${walt.fullName}.`)).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: customer.email })).toHaveCount(0);
    await page.screenshot({ path: `${screens}/manager-unassigned-tickets-assigned.png`, fullPage: true });
  });

  await test.step("the ticket is Walt's now: in his tickets call and on his Support Tickets tab", async () => {
    const after = await request.post('/functions/v1/get-worker-tickets', { headers: bearer(walt.session), data: { workerId: walt.id } });
    const list = (await after.json()) as { tickets: { subject: string }[]; userEmails: Record<string, string>; totalCount: number };
    expect(list.tickets.map((t) => t.subject)).toEqual([cardSubject]);
    expect(Object.values(list.userEmails)).toContain(customer.email);
    const workerContext = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 900 } });
    const workerPage = await workerContext.newPage();
    await openAs(workerPage, walt.session, '/dashboard/worker/support-tickets');
    await expect(workerPage.getByText(cardSubject)).toBeVisible();
    await expect(workerPage.getByText(raceSubject)).toBeHidden();
    await workerContext.close();
  });
});
