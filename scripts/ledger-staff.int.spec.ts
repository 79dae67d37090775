import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli, openCliWorkspace, type CliWorkspace } from '../tests/support/cli-workspace.js';
import { openDatabase } from '../server/db/database.js';
import { migrateToLatest } from '../migrations/index.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import type { NewEvent } from '../ledger/event-store/port.js';
import { runCli } from './ledger.js';

const cli = (args: string[]) => captureCli(args);

const worker = randomUUID();
const admin = randomUUID();
const customer = randomUUID();

function event(type: string, data: unknown, actor: { id: string; role: string }): NewEvent {
  return {
    eventId: randomUUID(),
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
      await store.close();
      // Addresses are reserved by the accounts service when an account is made.
      await db.db
        .insertInto('auth_email_index')
        .values([
          { email_lower: 'cli-worker@example.com', user_id: worker },
          { email_lower: 'cli-admin@example.com', user_id: admin },
          { email_lower: 'cli-customer@example.com', user_id: customer },
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
    expect(JSON.parse(all.out).actions.map((a: { action: string; staff_email: string }) => [a.action, a.staff_email])).toEqual([
      ['unban', 'cli-admin@example.com'],
      ['ban', 'cli-worker@example.com'],
      ['claim', 'cli-worker@example.com'],
    ]);
    const byWorker = await cli(['staff-actions', '--staff', worker.toUpperCase(), '--from', '2000-01-01', '--to', '2999-12-31', '--csv']);
    const rows = byWorker.out.trim().split(/\r?\n/).filter(Boolean);
    expect(rows[0]).toBe('at,staff_id,staff_email,staff_role,customer_id,customer_email,action,detail,event_id,position');
    expect(rows.slice(1).map((r) => r.split(',')[6])).toEqual(['ban', 'claim']);
    const before = await cli(['staff-actions', '--to', '2000-01-01']);
    expect(before.out).toBe('No staff action matches.');
    const lines = await cli(['staff-actions', '--staff', 'cli-admin@example.com']);
    expect(lines.out).toContain('cli-admin@example.com (ADMIN)  unban  cli-customer@example.com  Unbanned');
    expect(lines.out).toContain('1 staff actions.');
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
