import zlib from 'node:zlib';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { bearer, demoManagerSession, ownSession, screens, signInNewCustomer, uniqueEmail, type ApiSession } from './helpers.js';

/*
 * Support tickets from both sides (spec 001 "Support Tickets", spec 002 "Support Tickets
 * (worker view)"): two browsers, one customer and the worker who owns them, talking live.
 */

const PNG = gradientPng(192, 108);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** A small real picture (a colour gradient), so that the screenshots show an image. */
function gradientPng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows.set([99 + (x * 100) / width, 102 + (y * 80) / height, 241], y * (width * 3 + 1) + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A worker of the demo manager's, signed in with a password of their own. (The demo worker's
 * one-time password is used up by the sign-in tests.)
 */
async function newWorkerSession(request: APIRequestContext): Promise<ApiSession> {
  const manager = await demoManagerSession(request);
  const email = uniqueEmail('support-worker');
  const created = await request.post('/functions/v1/create-worker-for-manager', {
    headers: bearer(manager),
    data: { fullName: 'Wes Worker', email, password: 'Given-by-manager-1' },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ownSession(request, email, 'Given-by-manager-1', 'Worker-own-pass-9');
}

async function openAs(browser: Browser, session: ApiSession, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto('/login');
  await page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [
    'wallet-ledger.session',
    JSON.stringify(session),
  ] as const);
  await page.goto(url);
  return page;
}

test('a customer opens a ticket with a PDF; the worker answers with an image; the reply arrives live and the customer can answer', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const customer = await signInNewCustomer(page, request, 'support', 'Sam Support');
  const worker = await newWorkerSession(request);
  const claimed = await request.post('/functions/v1/claim-user', {
    headers: bearer(worker),
    data: { userIdToClaim: customer.session.user.id },
  });
  expect(claimed.ok(), await claimed.text()).toBe(true);

  await test.step('the customer sees the empty state, then opens a ticket with a PDF', async () => {
    await page.goto('/dashboard/support');
    await expect(page.getByRole('heading', { level: 1, name: 'Support Tickets' })).toBeVisible();
    await expect(page.getByText('Oops! Nothing is here.')).toBeVisible();
    await expect(page.getByText("We couldn't find any support tickets.")).toBeVisible();
    await page.screenshot({ path: `${screens}/support-empty.png` });

    await page.getByRole('button', { name: 'Create Ticket' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Support Ticket' });
    await dialog.getByRole('button', { name: 'Create Ticket' }).click();
    await expect(dialog.getByText('Please enter a subject for your ticket')).toBeVisible();
    await expect(dialog.getByText('Please provide a message describing your issue')).toBeVisible();
    await page.screenshot({ path: `${screens}/support-create-errors.png` });
    await dialog.getByLabel('Subject').fill('Withdrawal not received');
    await expect(dialog.getByText('Please enter a subject for your ticket')).toBeHidden();
    await dialog.getByLabel('Message').fill('My withdrawal of 0.5 ETH has been pending for two days.');
    await expect(dialog.getByLabel('Urgency')).toHaveValue('medium');
    await dialog.getByLabel('Urgency').selectOption('high');
    await dialog
      .getByLabel('Attachments (optional)')
      .setInputFiles({ name: 'bank-statement.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.screenshot({ path: `${screens}/support-create.png` });
    await dialog.getByRole('button', { name: 'Create Ticket' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: /Withdrawal not received/ })).toContainText('Open');
  });

  await test.step('the conversation shows the PDF; the customer must wait for support', async () => {
    await page.getByRole('button', { name: /Withdrawal not received/ }).click();
    const convo = page.getByRole('dialog', { name: 'Withdrawal not received' });
    await expect(convo.getByText('bank-statement.pdf')).toBeVisible();
    const reply = convo.getByLabel('Reply');
    await expect(reply).toBeDisabled();
    await expect(reply).toHaveAttribute('placeholder', 'Waiting for support to respond...');
    await expect(convo.getByText('Please wait for support to respond before sending another message')).toBeVisible();
    await page.screenshot({ path: `${screens}/support-waiting.png` });
    await page.evaluate(() => Object.assign(window, { __noReload: true }));
  });

  const workerPage = await openAs(browser, worker, '/dashboard/worker/support-tickets');
  await test.step('the worker sees the ticket with the PDF and replies with an image', async () => {
    const row = workerPage.getByRole('button', { name: /Withdrawal not received/ });
    await expect(row).toContainText(customer.email);
    await expect(row).toContainText('High');
    await workerPage.screenshot({ path: `${screens}/worker-tickets.png` });
    await row.click();
    const convo = workerPage.getByRole('dialog', { name: 'Withdrawal not received' });
    await expect(convo.getByText('bank-statement.pdf')).toBeVisible();
    const [pdfTab] = await Promise.all([workerPage.context().waitForEvent('page'), convo.getByRole('button', { name: 'Open' }).click()]);
    expect(pdfTab.url()).toMatch(/^blob:/);
    await pdfTab.close();

    await convo.getByTestId('reply-file-input').setInputFiles([
      { name: 'how-to.png', mimeType: 'image/png', buffer: PNG },
      { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
      { name: 'wrong.png', mimeType: 'image/png', buffer: PNG },
    ]);
    const pending = convo.getByRole('list', { name: 'Files to send' });
    await expect(pending.getByText('wrong.png')).toBeVisible();
    // The file refused on the way is named after the files behind it are up, and for 5 s only.
    const refused = convo.getByRole('alert').filter({ hasText: 'Format not supported: .EXE.' });
    await expect(refused).toBeVisible();
    await expect(pending.getByText('setup.exe')).toBeHidden();
    await expect(refused).toBeHidden({ timeout: 7_000 });
    await pending.getByRole('button', { name: 'Remove wrong.png' }).click();
    await expect(pending.getByText('wrong.png')).toBeHidden();
    await expect(pending.getByText('how-to.png')).toBeVisible();
    await convo.getByLabel('Reply').fill('We found the transfer: it settles today. See the screenshot.');
    await convo.getByRole('button', { name: 'Send' }).click();
    await expect(convo.getByRole('img', { name: 'how-to.png' })).toBeVisible();
    await expect(convo.getByLabel('Status')).toHaveValue('in_progress');
    await workerPage.screenshot({ path: `${screens}/worker-ticket-conversation.png` });
  });

  await test.step('the customer sees the reply and the image appear without a reload, and answers', async () => {
    const convo = page.getByRole('dialog', { name: 'Withdrawal not received' });
    await expect(convo.getByText('We found the transfer: it settles today. See the screenshot.')).toBeVisible();
    await expect(convo.getByRole('img', { name: 'how-to.png' })).toBeVisible();
    const reply = convo.getByLabel('Reply');
    await expect(reply).toBeEnabled();
    await expect(reply).toHaveAttribute('placeholder', 'Type your reply...');
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    await page.screenshot({ path: `${screens}/support-conversation.png` });
    // The picture opens in a tab of its own, without the failure alert.
    const alerts: string[] = [];
    const onDialog = (d: import('@playwright/test').Dialog) => {
      alerts.push(d.message());
      void d.dismiss();
    };
    page.on('dialog', onDialog);
    const [picture] = await Promise.all([page.waitForEvent('popup'), convo.getByRole('button', { name: 'Open how-to.png' }).click()]);
    await picture.waitForLoadState();
    expect(picture.url()).toMatch(/^blob:/);
    expect(await picture.evaluate(() => window.opener)).toBeNull();
    await picture.close();
    page.off('dialog', onDialog);
    expect(alerts).toEqual([]);
    await reply.fill('Thank you, received it.');
    await convo.getByRole('button', { name: 'Send' }).click();
    await expect(reply).toBeDisabled();
    await expect(reply).toHaveAttribute('placeholder', 'Waiting for support to respond...');
  });

  await test.step('the worker sees the answer live, resolves the ticket; the customer list follows', async () => {
    const convo = workerPage.getByRole('dialog', { name: 'Withdrawal not received' });
    await expect(convo.getByText('Thank you, received it.')).toBeVisible();
    await convo.getByLabel('Status').selectOption('resolved');
    await convo.getByRole('button', { name: 'Save Status' }).click();
    await expect(convo.getByText('Saved!')).toBeVisible();
    await expect(convo.getByText('This ticket is resolved. Sending a reply will re-open it.')).toBeVisible();
    await workerPage.screenshot({ path: `${screens}/worker-ticket-resolved.png` });
    await expect(convo.getByText('Saved!')).toBeHidden({ timeout: 5_000 });

    await page.getByRole('dialog', { name: 'Withdrawal not received' }).getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('button', { name: /Withdrawal not received/ })).toContainText('Resolved');
  });

  await test.step("the worker's status filter is kept and follows a status change", async () => {
    await workerPage.getByRole('dialog', { name: 'Withdrawal not received' }).getByRole('button', { name: 'Close' }).click();
    const filter = workerPage.getByLabel('Filter by status');
    await filter.selectOption('open');
    await expect(workerPage.getByText('No tickets found.')).toBeVisible();
    await filter.selectOption('resolved');
    await workerPage.getByRole('button', { name: /Withdrawal not received/ }).click();
    const convo = workerPage.getByRole('dialog', { name: 'Withdrawal not received' });
    await convo.getByLabel('Status').selectOption('open');
    await convo.getByRole('button', { name: 'Save Status' }).click();
    await expect(convo.getByText('Saved!')).toBeVisible();
    await convo.getByRole('button', { name: 'Close' }).click();
    // A second later the list is read again, and the filter moves to the new status.
    await expect(filter).toHaveValue('open');
    await expect(workerPage.getByRole('button', { name: /Withdrawal not received/ })).toContainText('Open');
    await workerPage.reload();
    await expect(workerPage.getByLabel('Filter by status')).toHaveValue('open');
  });

  await test.step('on a phone the list fits the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    // The sidebar becomes a drawer that slides away.
    await expect(page.getByRole('complementary', { name: 'Main navigation' })).not.toBeInViewport();
    await expect(page.getByRole('button', { name: /Withdrawal not received/ })).toContainText('Open');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${screens}/support-mobile.png` });
  });
  await workerPage.context().close();
});

test("the worker's ticket list shows a failed load as 'Failed to load tickets: {reason}'", async ({ request, browser }) => {
  const worker = await newWorkerSession(request);
  const page = await openAs(browser, worker, '/dashboard/worker/support-tickets');
  await expect(page.getByText('No tickets found.')).toBeVisible();
  await page.route('**/functions/v1/get-worker-tickets', (route) => route.fulfill({ status: 500, json: { error: 'Database is down.' } }));
  await page.reload();
  await expect(page.getByRole('alert')).toHaveText('Failed to load tickets: Database is down.');
  await page.screenshot({ path: '/tmp/shots/worker-tickets-load-error.png' });
  await page.context().close();
});

test("a refused ticket shows the server's error text, else 'Failed to create ticket. Please try again.'", async ({ page, request }) => {
  await signInNewCustomer(page, request, 'support-refused');
  const answers = [
    { status: 429, json: { error: 'Rate limit exceeded, retry in 1 minute' } },
    { status: 500, body: '' },
  ];
  await page.route('**/functions/v1/create-support-ticket', (route) => route.fulfill(answers.shift()!));
  await page.goto('/dashboard/support');
  await page.getByRole('button', { name: 'Create Ticket' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Support Ticket' });
  await dialog.getByLabel('Subject').fill('Card declined');
  await dialog.getByLabel('Message').fill('My card was declined twice.');
  await dialog.getByRole('button', { name: 'Create Ticket' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Rate limit exceeded, retry in 1 minute');
  await page.screenshot({ path: '/tmp/shots/create-ticket-server-error.png' });
  await dialog.getByRole('button', { name: 'Create Ticket' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Failed to create ticket. Please try again.');
});
