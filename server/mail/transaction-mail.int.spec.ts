import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import {
  BELOW_FOUR_EYES_LIMIT,
  bearer,
  createTestApp,
  mailTo,
  registeredCustomer,
  signIn,
  type TestApp,
} from '../../tests/support/test-app.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createStaff } from '../auth/staff-accounts.js';
import { drainMail, OutboxMailer } from './mailer.js';
import { TRANSACTION_MAIL_WHY } from './templates.js';
import { mailTransactionOutcomes } from './transaction-mail.js';
import { replayProjections } from '../../projections/replay.js';
import { PROJECTIONS } from '../../projections/registry.js';
import { notificationsProjection } from '../../projections/notifications.js';

/*
 * Settings > Notifications, "Transaction updates" by e-mail (issue 50): off until the customer
 * turns it on; then money received, a transaction settled and one failed each send one mail,
 * once per transaction and outcome, whatever hands the same events again.
 */
describe('transaction e-mails', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signIn>>;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  const EMAIL = 'mailme@example.com';
  const ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const post = async (p: string, token: string, payload: Record<string, unknown>, status = 200) => {
    const res = await inject({ method: 'POST', url: `/functions/v1/${p}`, headers: bearer(token), payload });
    expect(res.statusCode, `${p}: ${res.body}`).toBe(status);
    return res.json();
  };
  const prefs = (payload?: Record<string, unknown>) =>
    inject({
      method: payload ? 'PUT' : 'GET',
      url: '/api/v1/notification-preferences',
      headers: bearer(customer.access_token),
      ...(payload ? { payload } : {}),
    });
  const choices = (transactionsEmail: boolean) => ({
    transactionsInApp: true,
    transactionsEmail,
    accountChangesEmail: true,
    accountChangesInApp: true,
  });
  /** A manual deposit by staff (spec 002's Add Transaction): its id. */
  const addDeposit = async (amount: string, status: 'Complete' | 'Pending', assetId = 'BTC', extra: Record<string, unknown> = {}) =>
    (
      (await post('add-transaction', admin.access_token, {
        targetUserId: customer.user.id,
        assetId,
        amount,
        status,
        senderAddress: 'bank',
        sentAt: new Date().toISOString(),
        ...extra,
      })) as { transactionId: string }
    ).transactionId;
  const setStatus = (transactionId: string, status: 'Complete' | 'Failed', code = 200) =>
    post('update-transaction', admin.access_token, { targetUserId: customer.user.id, transactionId, status }, code);
  /** Every transaction mail the customer got (all sends started by the app done first). */
  const transactionMails = async () => {
    await drainMail(t.app.authServices.mailer, 5000);
    return (await t.outbox.list({ to: EMAIL })).filter((m) => m.text.includes(TRANSACTION_MAIL_WHY));
  };
  const subjects = async () => (await transactionMails()).map((m) => m.subject).sort();
  const TIME = /Time: \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d\d:\d\d:\d\d UTC/;
  /** When the customer turned the mails on (the events since were mailed). */
  let onSince: Date;

  beforeAll(async () => {
    t = await createTestApp({ ...BELOW_FOUR_EYES_LIMIT });
    const { password } = await createStaff(t.app.authServices.accounts, {
      email: 'txmail-admin@example.com',
      fullName: 'Ada Admin',
      role: 'ADMIN',
    });
    const first = await signIn(t, 'txmail-admin@example.com', password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'staff-own-pass-1' } });
    admin = await signIn(t, 'txmail-admin@example.com', 'staff-own-pass-1');
    customer = await registeredCustomer(t, EMAIL, 'mail-me-pass-123', 'Mai Lme');
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('is off by default: money received, a settled send and a failed deposit send no mail', async () => {
    expect((await prefs()).json()).toEqual(choices(false));
    await addDeposit('5', 'Complete');
    const send = await post('create-pending-withdrawal', customer.access_token, { assetId: 'BTC', amount: '1', recipientAddress: ADDRESS });
    await setStatus(send.transactionId, 'Complete');
    await setStatus(await addDeposit('2', 'Pending', 'ETH'), 'Failed');
    expect(await transactionMails()).toEqual([]);
  });

  it('bad values of the choice are a 400 and change nothing', async () => {
    for (const bad of [
      { ...choices(true), transactionsEmail: 'on' },
      { ...choices(true), transactionsEmail: 1 },
    ]) {
      const res = await prefs(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(typeof res.json().error).toBe('string');
    }
    expect((await prefs()).json()).toEqual(choices(false));
  });

  it('turned on, money received, a settled send and a failed deposit each send one mail with asset, amount (2 to 8 decimals, as the screens) and time', async () => {
    const saved = await prefs(choices(true));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(choices(true));
    const stream = await t.app.ledger.store.readStream(`user-${customer.user.id}`);
    const event = stream.filter((e) => e.type === 'user.notification-preferences-set').at(-1)!;
    expect(event.data).toEqual(choices(true));
    expect([event.metadata.actorId, event.metadata.actorRole]).toEqual([customer.user.id, 'USER']);
    onSince = event.recordedAt;

    // Received: a manual deposit recorded Complete, to the last of its 18 decimals.
    await addDeposit('0.123456789012345678', 'Complete', 'ETH');
    const received = await mailTo(t.outbox, EMAIL, /^You received 0\.12345679 ETH$/);
    expect(received.text).toContain('Hi Mai Lme,');
    expect(received.text).toContain('Your deposit of 0.12345679 ETH has been completed and credited to your wallet.');
    expect(received.text).toContain('Asset: ETH');
    expect(received.text).toContain('Amount: 0.12345679');
    expect(received.text).toMatch(TIME);
    expect(received.html).toContain('Amount: 0.12345679');

    // Received: a Pending deposit that staff settle.
    const pendingDeposit = await addDeposit('1234.5', 'Pending', 'USDT');
    expect(await subjects()).toEqual(['You received 0.12345679 ETH']);
    await setStatus(pendingDeposit, 'Complete');
    expect((await mailTo(t.outbox, EMAIL, /^You received 1,234\.50 USDT$/)).text).toContain('Amount: 1,234.50');

    // Settled: the customer's send to an address, Complete once staff settle it.
    const send = await post('create-pending-withdrawal', customer.access_token, {
      assetId: 'BTC',
      amount: '0.25',
      recipientAddress: ADDRESS,
    });
    await setStatus(send.transactionId, 'Complete');
    const sent = await mailTo(t.outbox, EMAIL, /^Your transfer of 0\.25 BTC has been sent$/);
    expect(sent.text).toContain('Asset: BTC');
    expect(sent.text).toMatch(TIME);

    // Failed: a Pending deposit that staff fail.
    await setStatus(await addDeposit('3', 'Pending', 'ETH'), 'Failed');
    expect((await mailTo(t.outbox, EMAIL, /^Your deposit of 3\.00 ETH has failed$/)).text).toContain('Amount: 3.00');

    // A transaction hidden from the customer's view is not told of.
    await addDeposit('7', 'Complete', 'BTC', { isHidden: true });

    expect(await subjects()).toEqual([
      'You received 0.12345679 ETH',
      'You received 1,234.50 USDT',
      'Your deposit of 3.00 ETH has failed',
      'Your transfer of 0.25 BTC has been sent',
    ]);
    // The log holds the choice, never a mail, its key or its text.
    const logged = JSON.stringify(
      [
        ...(await t.app.ledger.store.readStream(`user-${customer.user.id}`)),
        ...(await t.app.ledger.store.readStream(`wallet-${customer.user.id}`)),
      ].map((e) => [e.type, e.data, e.metadata]),
    );
    expect(logged).not.toMatch(/transaction:|You received|has been sent|has failed|Settings > Notifications/);
  });

  it('a second delivery, another instance at the same moment, a restart and a replay send none of them again', async () => {
    const before = await subjects();
    const wallet = (await t.app.ledger.store.readStream(`wallet-${customer.user.id}`)).filter((e) => e.recordedAt >= onSince);
    const outcomes = wallet.filter((e) => e.type === 'wallet.transaction-settled' || e.type === 'wallet.transaction-failed');
    expect(outcomes.length).toBeGreaterThanOrEqual(3);
    const db = t.app.ledger.database.db;
    const log = { warn: () => {} };

    // The same events handed again (a retried command, a second delivery): nothing is sent.
    expect(await mailTransactionOutcomes(db, t.app.authServices.mailer, log, customer.user.id, wallet)).toBe(0);
    // Staff saving the same status again record nothing and send nothing.
    const settledId = (outcomes.find((e) => e.type === 'wallet.transaction-settled')!.data as { transactionId: string }).transactionId;
    await setStatus(settledId, 'Complete');
    expect(await subjects()).toEqual(before);

    // Two instances (each with its own mailer) handed the same new outcome at once: one mail.
    const news = [
      { type: 'wallet.transaction-settled', data: { transactionId: randomUUID(), assetId: 'BTC', amount: '0.5', kind: 'deposit' } },
    ];
    const instances = [new OutboxMailer(t.outbox.dir), new OutboxMailer(t.outbox.dir)];
    const taken = await Promise.all(instances.map((m) => mailTransactionOutcomes(db, m, log, customer.user.id, news)));
    await Promise.all(instances.map((m) => drainMail(m, 5000)));
    expect(taken.sort()).toEqual([0, 1]);
    expect(await subjects()).toEqual([...before, 'You received 0.50 BTC'].sort());

    // A restart: a new app on the same database and outbox.
    await t.app.close();
    t.app = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: t.dataDir,
        PUBLIC_URL: 'http://wallet.test',
        ...BELOW_FOUR_EYES_LIMIT,
      }),
      { database: t.database, clientDir: path.join(t.dataDir, 'no-client') },
    );
    const restarted = t.app.ledger.database.db;
    expect(await mailTransactionOutcomes(restarted, t.app.authServices.mailer, log, customer.user.id, [...wallet, ...news])).toBe(0);
    // Rebuilding every read model from the log sends nothing either.
    await replayProjections(t.app.ledger.database.projectionDb, t.app.ledger.store, PROJECTIONS);
    expect((await prefs()).json()).toEqual(choices(true));
    expect(await subjects()).toEqual([...before, 'You received 0.50 BTC'].sort());
  });

  it('turned off, no more are sent', async () => {
    const before = await subjects();
    expect((await prefs(choices(false))).json()).toEqual(choices(false));
    await addDeposit('1', 'Complete');
    await setStatus(await addDeposit('2', 'Pending'), 'Failed');
    await setStatus(await addDeposit('3', 'Pending'), 'Complete');
    expect(await subjects()).toEqual(before);
  });

  it('a choice recorded before the transaction e-mails existed reads as off', async () => {
    // A version 1 event, as stored before this choice existed.
    const stream = `user-${customer.user.id}`;
    await t.app.ledger.store.append(
      stream,
      [
        {
          eventId: randomUUID(),
          type: 'user.notification-preferences-set',
          version: 1,
          data: { transactionsInApp: false, accountChangesEmail: true, accountChangesInApp: true },
          metadata: {
            actorId: customer.user.id,
            actorRole: 'USER',
            correlationId: randomUUID(),
            causationId: null,
            occurredAt: new Date().toISOString(),
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    const [last] = (await t.app.ledger.store.readStream(stream)).slice(-1);
    expect(last!.data).toEqual({
      transactionsInApp: false,
      transactionsEmail: false,
      accountChangesEmail: true,
      accountChangesInApp: true,
    });
    await t.app.ledger.projector.waitFor(last!.position, 5000);
    expect((await prefs()).json()).toEqual({ ...choices(false), transactionsInApp: false });
    await replayProjections(t.app.ledger.database.projectionDb, t.app.ledger.store, [notificationsProjection]);
    expect((await prefs()).json()).toEqual({ ...choices(false), transactionsInApp: false });
    const before = await subjects();
    await addDeposit('4', 'Complete');
    expect(await subjects()).toEqual(before);
    // Turning it on from there is recorded as the current version and mails again.
    expect((await prefs(choices(true))).statusCode).toBe(200);
    await addDeposit('6', 'Complete', 'ETH');
    expect(await subjects()).toEqual([...before, 'You received 6.00 ETH'].sort());
  });
});
