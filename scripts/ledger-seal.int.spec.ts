import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { captureCli, openCliWorkspace, type CliWorkspace } from '../tests/support/cli-workspace.js';
import { loadConfig } from '../server/config.js';
import { createLedgerContext } from '../server/context.js';
import { openDatabase, type Database } from '../server/db/database.js';
import { walletDecider } from '../ledger/wallet/decider.js';
import type { WalletCommand } from '../ledger/wallet/wallet.js';
import { decide, initialState } from '../ledger/wallet/wallet.js';
import { money } from '../ledger/money.js';
import { staffAct } from '../ledger/wallet/wallet.arbitraries.js';

const cli = (args: string[]) => captureCli(args);

/**
 * The log as a database administrator could rewrite it (SQL on the events table, then
 * `ledger replay all` to rebuild every read table from it): `ledger verify` names the event,
 * `ledger verify --seal DIGEST` the seal kept outside that no longer holds. Runs on PGlite, and
 * on PostgreSQL when DATABASE_URL is set.
 */
describe('ledger seal and verify: a log no one can rewrite', () => {
  let workspace: CliWorkspace;
  const customer = randomUUID();
  const worker = randomUUID();
  const now = new Date().toISOString();
  const stream = `wallet-${customer}`;
  const act = () =>
    staffAct(worker, {
      now,
      requestId: randomUUID(),
      price: { usd: '97000', ageS: 1, medianUsd: '97000' },
      policy: { limitUsd: '1000', dailyLimitUsd: '5000', maxPriceAgeS: 600, priceBand: '0.5', expiryHours: 72 },
    });
  /** A manual credit, below the two-person limit. */
  const manual = (amount: string): WalletCommand => ({
    type: 'RecordTransaction',
    transactionId: randomUUID(),
    assetId: 'BTC',
    sentAt: now,
    amount: money(amount),
    status: 'Complete',
    txType: 'deposit',
    note: null,
    senderAddress: 'bank',
    txid: null,
    isHidden: true,
    reason: 'bank transfer',
    staff: act(),
  });
  const config = () =>
    loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: workspace.dataDir, DATABASE_URL: process.env.DATABASE_URL });

  /** Three manual credits on the customer's wallet, as the API would record them. */
  async function history() {
    workspace = await openCliWorkspace('ledger-seal-');
    const ledger = await createLedgerContext(config());
    try {
      for (const amount of ['0.0012', '0.0013', '0.0014'])
        await ledger.execute(walletDecider, customer, manual(amount), { actor: { id: worker, role: 'WORKER' } });
    } finally {
      await ledger.close();
    }
  }
  /** SQL on the database, as whoever holds it (the CLI is not running). */
  async function asAdministrator(fn: (db: Database['db']) => Promise<unknown>) {
    const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: workspace.dataDir });
    try {
      await fn(database.db);
    } finally {
      await database.close();
    }
  }
  const positionOf = async (revision: number) => {
    let position = '';
    await asAdministrator(async (db) => {
      const { rows } = await sql<{ p: string }>`select tx_id::text || '/' || global_position as p from events
        where stream_id = ${stream} and stream_revision = ${revision}`.execute(db);
      position = rows[0]!.p;
    });
    return position;
  };

  afterEach(async () => {
    await workspace?.close();
  });

  it('an amount edited with SQL is named by verify after replay all; a seal kept outside proves the log, then names the seal the rewrite broke', async () => {
    await history();
    const seal = await cli(['seal']);
    expect(seal.code).toBe(0);
    const digest = /Digest: ([0-9a-f]{64})/.exec(seal.out)![1]!;
    expect(seal.out).toContain('Sealed the log: seal 0, 3 events in 1 streams');
    const clean = await cli(['verify', '--seal', digest]);
    expect(clean.code).toBe(0);
    expect(clean.out).toContain('ok   event log: 4 events in 2 streams');
    expect(clean.out).toContain(`ok   seal kept outside ${digest}: the digest kept outside proves the log up to seal 0`);

    // 0.0012 becomes 0.0102 (below the two-person limit, so no other check sees it): the read
    // tables are rebuilt from the edited log and agree with it.
    const edited = await positionOf(0);
    await asAdministrator((db) =>
      sql`update events set data = jsonb_set(data, '{amount}', '"0.0102"') where stream_id = ${stream} and stream_revision = 0`.execute(db),
    );
    expect((await cli(['replay', 'all'])).code).toBe(0);
    const after = await cli(['verify']);
    expect(after.code).toBe(1);
    expect(after.out).toContain('ok   four eyes');
    expect(after.out).toContain(
      `FAIL event log: 4 events in 2 streams, each hash recomputed from its content\n     first event that differs: ${stream} revision 0 (position ${edited}, wallet.transaction-recorded, event `,
    );
    expect(after.out).toContain('its content does not give its hash (edited');
    expect(after.out).toMatch(/FAIL seal 0 \(sealed .*\): recorded [0-9a-f]{64}, the log now gives [0-9a-f]{64}/);
    expect(after.out).toContain('verify: FAILED: the event log is not the one that was written and sealed');

    // Whoever holds the database rechains the edited stream and writes the seals anew: the log
    // agrees with itself, and only the digest kept outside tells.
    await asAdministrator(async (db) => {
      await sql`update events set hash = null where stream_id = ${stream}`.execute(db);
      await sql`update streams set head_hash = null where stream_id = ${stream}`.execute(db);
      await sql`delete from events where stream_id = 'ledger-seals'`.execute(db);
      await sql`delete from streams where stream_id = 'ledger-seals'`.execute(db);
    });
    expect((await cli(['seal', '--backfill'])).code).toBe(0);
    expect((await cli(['replay', 'all'])).code).toBe(0);
    const rewritten = await cli(['verify']);
    expect(rewritten.code).toBe(0);
    const kept = await cli(['verify', '--seal', digest]);
    expect(kept.code).toBe(1);
    expect(kept.out).toContain('ok   event log');
    expect(kept.out).toMatch(
      new RegExp(
        `FAIL seal kept outside ${digest}: no seal of the log records or gives the digest kept outside: the log and its seals were rewritten \\(1 seal now, the last 0 sealed .* up to \\d+/\\d+, recording [0-9a-f]{64}\\)`,
      ),
    );
    await expect(cli(['verify', '--seal', 'not-a-digest'])).rejects.toThrow('--seal must be a digest printed by `ledger seal`');
  }, 180_000);

  it('a deleted and a reordered event are named by verify after replay all', async () => {
    await history();
    expect((await cli(['seal'])).code).toBe(0);
    const first = await positionOf(0);
    const third = await positionOf(2);
    await asAdministrator((db) => sql`delete from events where stream_id = ${stream} and stream_revision = 1`.execute(db));
    expect((await cli(['replay', 'all'])).code).toBe(0);
    const deleted = await cli(['verify']);
    expect(deleted.code).toBe(1);
    expect(deleted.out).toContain(`first event that differs: ${stream} revision 2 (position ${third}, wallet.transaction-recorded, event `);
    expect(deleted.out).toContain('revision 1 of the stream is not in the log before it (deleted or reordered)');

    // Renumbered to close the gap, and the two left swapped: still named.
    await asAdministrator(async (db) => {
      await sql`update events set stream_revision = -1 where stream_id = ${stream} and stream_revision = 0`.execute(db);
      await sql`update events set stream_revision = 0 where stream_id = ${stream} and stream_revision = 2`.execute(db);
      await sql`update events set stream_revision = 1 where stream_id = ${stream} and stream_revision = -1`.execute(db);
      await sql`update streams set revision = 1 where stream_id = ${stream}`.execute(db);
    });
    expect((await cli(['replay', 'all'])).code).toBe(0);
    const reordered = await cli(['verify']);
    expect(reordered.code).toBe(1);
    // In the order of the log the first credit now holds revision 1, after the third's 0.
    expect(reordered.out).toContain(`first event that differs: ${stream} revision 1 (position ${first}, wallet.transaction-recorded`);
    expect(reordered.out).toContain('revision 0 of the stream is not in the log before it (deleted or reordered)');
    expect(reordered.out).toContain(`also: ${stream} revision 0 (position ${third}, wallet.transaction-recorded`);
    expect(reordered.out).toContain('comes after revision 1 of its stream (reordered)');
    expect(reordered.out).toMatch(/FAIL seal 0 /);
  }, 180_000);

  it('an old log is chained once by seal --backfill, and a log with unchained events is not sealed without it', async () => {
    await history();
    // As the log stood before the chain: no hashes.
    await asAdministrator(async (db) => {
      await sql`update events set hash = null`.execute(db);
      await sql`update streams set head_hash = null`.execute(db);
    });
    const before = await cli(['verify']);
    expect(before.code).toBe(1);
    expect(before.out).toContain('3 events are not chained: run `ledger seal --backfill` once');
    await expect(cli(['seal'])).rejects.toThrow('3 events are not chained yet: run `ledger seal --backfill` once first.');
    // An append to an unchained stream stays unchained until the backfill, which chains it whole.
    const ledger = await createLedgerContext(config());
    try {
      await ledger.execute(walletDecider, customer, manual('0.0015'), { actor: { id: worker, role: 'WORKER' } });
    } finally {
      await ledger.close();
    }
    const backfill = await cli(['seal', '--backfill']);
    expect(backfill.code).toBe(0);
    expect(backfill.out).toContain('Chained 4 events in 1 streams.');
    expect(backfill.out).toContain('Sealed the log: seal 0, 4 events in 1 streams');
    const after = await cli(['verify']);
    expect(after.code).toBe(0);
    expect(after.out).toContain('ok   event log: 5 events in 2 streams');
    // Appends after it chain on from the backfilled head, also in a process that read the stream before.
    const again = await createLedgerContext(config());
    try {
      await again.execute(walletDecider, customer, manual('0.0016'), { actor: { id: worker, role: 'WORKER' } });
    } finally {
      await again.close();
    }
    expect((await cli(['seal'])).code).toBe(0);
    expect((await cli(['verify'])).code).toBe(0);
    // A second backfill finds nothing to chain and rewrites nothing.
    expect((await cli(['seal', '--backfill'])).out).toContain('Chained 0 events in 0 streams.');
  }, 180_000);

  it('an event that does not match its schema is named by the live projector, which writes no row of it, and by replay', async () => {
    await history();
    const ledger = await createLedgerContext(config());
    const failures: string[] = [];
    ledger.projector.on('failed', (err: Error) => failures.push(err.message));
    try {
      // Appended around the decider (which checks every event it writes): no fee.
      const [event] = decide(manual('0.0017'), initialState());
      const { fee: _fee, ...data } = event!.data as Record<string, unknown>;
      const transactionId = String(data.transactionId);
      const appended = await ledger.store.append(
        stream,
        [
          {
            eventId: randomUUID(),
            type: event!.type,
            version: 1,
            data,
            metadata: { actorId: worker, actorRole: 'WORKER', correlationId: randomUUID(), causationId: null, occurredAt: now },
          },
        ],
        { expectedRevision: 2n },
      );
      expect(appended.nextExpectedRevision).toBe(3n);
      expect(await ledger.projector.waitFor(appended.position, 3_000)).toBe(false);
      expect(failures[0]).toContain(`event ${stream} revision 3 at position `);
      expect(failures[0]).toContain('(wallet.transaction-recorded, id ');
      expect(failures[0]).toContain('does not match its schema: fee:');
      const rows = await ledger.database.db.selectFrom('transactions').select('id').where('id', '=', transactionId).execute();
      expect(rows).toEqual([]);
    } finally {
      await ledger.close();
    }
    await expect(cli(['replay', 'transactions'])).rejects.toThrow(
      new RegExp(
        `event ${stream} revision 3 at position \\d+/\\d+ \\(wallet.transaction-recorded, id [0-9a-f-]{36}\\) does not match its schema: fee:`,
      ),
    );
  }, 180_000);
});
