import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli, openCliWorkspace, type CliWorkspace } from '../tests/support/cli-workspace.js';
import { openDatabase } from '../server/db/database.js';
import { migrateToLatest } from '../migrations/index.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import type { NewEvent } from '../ledger/event-store/port.js';
import { newId } from '../ledger/ids.js';
import { runCli } from './ledger.js';

const cli = (args: string[]) => captureCli(args);

const worker = randomUUID();
const admin = randomUUID();
const customer = randomUUID();
/** A worker an admin created, with an address made to run in a spreadsheet. */
const hostile = randomUUID();
const HOSTILE_EMAIL = '=HYPERLINK("http://evil.example")@evil.example';
const requestId = randomUUID();
const transactionId = randomUUID();

function event(type: string, data: unknown, actor: { id: string; role: string }): NewEvent {
  return {
    // Time-ordered, as the app's: two events of one append list in their order.
    eventId: newId(),
    type,
    version: 1,
    data,
    metadata: {
      actorId: actor.id,
      actorRole: actor.role,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
    },
  };
}
const registered = (email: string, role: string) =>
  event(
    'user.registered',
    { email, fullName: email, role, source: 'operator', requiresPasswordChange: false, emailConfirmed: true },
    { id: 'operator', role: 'SYSTEM' },
  );

describe('ledger CLI: staff-actions', () => {
  let workspace: CliWorkspace;
  let dataDir: string;
  beforeAll(async () => {
    workspace = await openCliWorkspace('ledger-staff-cli-');
    dataDir = workspace.dataDir;
    // A worker who claims and bans a customer, and an admin who lifts the ban; then the read tables.
    const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
    try {
      await migrateToLatest(db.db);
      const store = new PostgresEventStore(db.db);
      await store.append(`user-${worker}`, [registered('cli-worker@example.com', 'WORKER')], { expectedRevision: 'any' });
      await store.append(`user-${admin}`, [registered('cli-admin@example.com', 'ADMIN')], { expectedRevision: 'any' });
      await store.append(`user-${customer}`, [registered('cli-customer@example.com', 'USER')], { expectedRevision: 'any' });
      const w = { id: worker, role: 'WORKER' };
      // A millisecond apart at least: the list is newest first by time, and two actions of one
      // millisecond follow each other in event-id order (docs/decisions.md).
      const tick = () => new Promise((r) => setTimeout(r, 3));
      await store.append(`user-${customer}`, [event('user.claimed', { workerId: worker }, w)], { expectedRevision: 'any' });
      await tick();
      await store.append(`user-${customer}`, [event('user.banned', { until: '2126-01-01T00:00:00.000Z' }, w)], { expectedRevision: 'any' });
      await tick();
      await store.append(`user-${customer}`, [event('user.unbanned', {}, { id: admin, role: 'ADMIN' })], { expectedRevision: 'any' });
      await tick();
      // The admin creates a worker and resets their password; the operator creates nobody here.
      const a = { id: admin, role: 'ADMIN' };
      const created = {
        email: HOSTILE_EMAIL,
        fullName: 'H',
        role: 'WORKER',
        source: 'staff',
        requiresPasswordChange: true,
        emailConfirmed: true,
      };
      await store.append(`user-${hostile}`, [event('user.registered', created, a)], { expectedRevision: 'any' });
      await tick();
      await store.append(`user-${hostile}`, [event('user.password-changed', { method: 'staff-reset' }, a)], { expectedRevision: 'any' });
      await tick();
      // A credit above the limit: the worker asks, the admin approves and so writes the credit.
      await store.append(
        `wallet-${customer}`,
        [
          event(
            'wallet.approval-requested',
            {
              requestId,
              transactionId,
              action: 'manual-transaction',
              assetId: 'BTC',
              amount: '2',
              priceUsd: '97000',
              valueUsd: '194000',
              limitUsd: '1000',
              makerId: worker,
              makerRole: 'WORKER',
              expiresAt: '2126-01-01T00:00:00.000Z',
              transaction: null,
            },
            w,
          ),
        ],
        { expectedRevision: 'any' },
      );
      await tick();
      await store.append(
        `wallet-${customer}`,
        [
          event('wallet.approval-approved', { requestId, makerId: worker, checkerId: admin, checkerRole: 'ADMIN', reason: 'ok' }, a),
          event(
            'wallet.transaction-recorded',
            {
              transactionId,
              assetId: 'BTC',
              amount: '2',
              fee: '0',
              type: 'deposit',
              status: 'Complete',
              note: '=1+2 wire',
              sentAt: '2026-01-01T00:00:00.000Z',
              senderAddress: 'bank',
              recipientAddress: null,
              txid: null,
              isHidden: false,
              requestId: null,
              paymentMethodId: null,
              reason: null,
              makerId: worker,
              approvalRequestId: requestId,
            },
            a,
          ),
        ],
        { expectedRevision: 'any' },
      );
      await store.close();
      // Addresses are reserved by the accounts service when an account is made.
      await db.db
        .insertInto('auth_email_index')
        .values([
          { email_lower: 'cli-worker@example.com', user_id: worker },
          { email_lower: 'cli-admin@example.com', user_id: admin },
          { email_lower: 'cli-customer@example.com', user_id: customer },
          { email_lower: HOSTILE_EMAIL.toLowerCase(), user_id: hostile },
        ])
        .execute();
    } finally {
      await db.close();
    }
    const replay = await cli(['replay', 'all', '--json']);
    expect(replay.code).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await workspace.close();
  });

  it('lists staff actions newest first, filtered by staff member, customer and time, as JSON, CSV or lines', async () => {
    const all = await cli(['staff-actions', '--customer', 'cli-customer@example.com', '--json']);
    expect(all.code).toBe(0);
    type Row = { action: string; maker_email: string; checker_email: string | null };
    expect(JSON.parse(all.out).actions.map((a: Row) => [a.action, a.maker_email, a.checker_email])).toEqual([
      ['transaction-add', 'cli-worker@example.com', 'cli-admin@example.com'],
      ['approval-decision', 'cli-worker@example.com', 'cli-admin@example.com'],
      ['approval-request', 'cli-worker@example.com', null],
      ['unban', 'cli-admin@example.com', null],
      ['ban', 'cli-worker@example.com', null],
      ['claim', 'cli-worker@example.com', null],
    ]);
    const byWorker = await cli(['staff-actions', '--staff', worker.toUpperCase(), '--from', '2000-01-01', '--to', '2999-12-31', '--csv']);
    const rows = byWorker.out.trim().split(/\r?\n/).filter(Boolean);
    expect(rows[0]).toBe(
      'at,action,action_code,maker_id,maker_email,maker_role,checker_id,checker_email,checker_role,customer_id,customer_email,detail,event_type,event_id,position',
    );
    expect(rows.slice(1).map((r) => r.split(',')[2])).toEqual(['transaction-add', 'approval-decision', 'approval-request', 'ban', 'claim']);
    expect(rows[1]).toContain(
      `,Manual transaction,transaction-add,${worker},cli-worker@example.com,WORKER,${admin},cli-admin@example.com,ADMIN,`,
    );
    const before = await cli(['staff-actions', '--to', '2000-01-01']);
    expect(before.out).toBe('No staff action matches.');
    const lines = await cli(['staff-actions', '--staff', 'cli-admin@example.com', '--action', 'unban']);
    expect(lines.out).toContain('Unban  cli-admin@example.com (ADMIN)  cli-customer@example.com  Unbanned');
    expect(lines.out).toContain('1 staff actions.');
    const checked = await cli(['staff-actions', '--staff', 'cli-admin@example.com', '--action', 'transaction-add']);
    expect(checked.out).toContain(
      'Manual transaction  cli-worker@example.com (WORKER)  checked by cli-admin@example.com (ADMIN)  cli-customer@example.com',
    );
  });

  it('lists creating a worker and resetting their password, and neutralises a hostile address and note in the CSV', async () => {
    const json = await cli(['staff-actions', '--customer', hostile, '--json']);
    expect(JSON.parse(json.out).actions.map((a: { action: string; maker_id: string }) => [a.action, a.maker_id])).toEqual([
      ['password-reset', admin],
      ['staff-create', admin],
    ]);
    // `ledger create-staff`: the operator's command line is the maker, with no account.
    const made = await cli(['create-staff', '--role', 'MANAGER', '--email', 'ops-made@example.com', '--name', 'Ops Made', '--json']);
    expect(made.code).toBe(0);
    const byOperator = JSON.parse((await cli(['staff-actions', '--action', 'staff-create', '--json'])).out).actions;
    expect(byOperator[0]).toMatchObject({
      action_name: 'Staff account created',
      maker_id: null,
      maker_role: 'OPERATOR',
      customer_id: JSON.parse(made.out).userId,
      customer_email: 'ops-made@example.com',
      detail: 'Account registered (MANAGER, operator)',
    });
    const lines = (await cli(['staff-actions', '--action', 'staff-create'])).out;
    expect(lines).toContain('Staff account created  operator (OPERATOR)  ops-made@example.com  Account registered (MANAGER, operator)');
    const file = (await cli(['staff-actions', '--csv'])).out;
    expect(file).toContain(
      `,Staff account created,staff-create,${admin},cli-admin@example.com,ADMIN,,,,${hostile},"'${HOSTILE_EMAIL.replace(/"/g, '""')}",`,
    );
    // The note is inside the detail ("Transaction added by staff: ... — =1+2 wire"): no cell starts with it.
    expect(file).not.toMatch(/(^|,)[=+@]/m);
  });

  it('refuses an unknown account, an option it does not take, a bad time and an unknown action (exit 2 usage errors)', async () => {
    await expect(runCli(['staff-actions', '--staff', 'nobody@example.com'])).rejects.toThrow(
      '--staff: no account with the e-mail address nobody@example.com.',
    );
    const id = randomUUID();
    await expect(runCli(['staff-actions', '--customer', id])).rejects.toThrow(`--customer: no account with the id ${id}.`);
    await expect(runCli(['staff-actions', '--user', 'x@example.com'])).rejects.toThrow('staff-actions does not take --user.');
    await expect(runCli(['staff-actions', '--from', 'yesterday'])).rejects.toThrow(
      '--from must be an ISO time like 2026-03-01T12:00:00Z or a date like 2026-03-01.',
    );
    await expect(runCli(['staff-actions', '--from', '2026-03-02', '--to', '2026-03-01'])).rejects.toThrow('--from must not be after --to.');
    await expect(runCli(['staff-actions', '--action', 'mint'])).rejects.toThrow('--action must be one of');
    await expect(runCli(['staff-actions', '--bogus'])).rejects.toThrow(/Unknown option '--bogus'/);
    await expect(runCli(['staff-actions', 'extra'])).rejects.toThrow('Unexpected argument "extra" for staff-actions.');
    const help = await cli(['staff-actions', '--help']);
    expect(help.out).toContain('Usage: npm run ledger -- staff-actions');
  });
});
