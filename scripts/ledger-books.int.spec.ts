import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli, openCliWorkspace, type CliWorkspace } from '../tests/support/cli-workspace.js';
import { loadConfig } from '../server/config.js';
import { withLedger } from './with-ledger.js';
import { runCli } from './ledger.js';
import { toNewEvents } from '../ledger/command-handler.js';
import type { EventStore } from '../ledger/event-store/port.js';
import { walletDecider } from '../ledger/wallet/decider.js';
import { walletStream } from '../ledger/wallet/events.js';
import { decide, evolve, WalletError, type WalletCommand } from '../ledger/wallet/wallet.js';
import { foldWallet } from '../ledger/journal/time-travel.js';
import { deposit, recorded, withdrawal } from '../ledger/wallet/wallet.arbitraries.js';
import { readClosedThrough } from '../ledger/books/periods.js';
import { inclusionProof } from '../ledger/books/liabilities.js';
import { money } from '../ledger/money.js';

const ALICE = '0190a000-0000-7000-8000-00000000a11c';
const BOB = '0190a000-0000-7000-8000-000000000b0b';

/** A manual credit dated `sentAt` (its value date), recorded now. */
const credit = (amount: string, assetId: 'BTC' | 'ETH', sentAt: string): WalletCommand => ({
  ...(recorded(amount, 'Complete', assetId) as Extract<WalletCommand, { type: 'RecordTransaction' }>),
  sentAt,
});

async function record(store: EventStore, userId: string, commands: WalletCommand[]): Promise<void> {
  const stream = walletStream(userId);
  const existing = await store.readStream(stream);
  let state = foldWallet(existing);
  let revision = existing.length ? existing[existing.length - 1]!.revision : ('no_stream' as const);
  for (const c of commands) {
    const events = decide(c, state);
    for (const e of events) state = evolve(state, e);
    revision = (
      await store.append(stream, toNewEvents(walletDecider, stream, events, { actor: { id: 'test', role: 'SYSTEM' } }), {
        expectedRevision: revision,
      })
    ).nextExpectedRevision;
  }
}

const cli = (args: string[]) => captureCli(args);
const jsonOf = async (args: string[]) => {
  const r = await cli(args);
  return { code: r.code, body: JSON.parse(r.out) };
};

type Line = { account: string; assetId: string; opening: string; increases: string; decreases: string; closing: string };

describe('ledger books: period trial balance, close, journal, liabilities and reserves', () => {
  let workspace: CliWorkspace;
  let now: string;
  beforeAll(async () => {
    workspace = await openCliWorkspace('ledger-books-cli-', ['EVENTSTORE_URL', 'PRICE_FEED_URL']);
    await withLedger(loadConfig(), async (_database, store) => {
      const dep = '0190a000-0000-7000-8000-0000000000d1';
      await record(store, ALICE, [credit('5', 'BTC', '2026-01-15T12:00:00.000Z'), credit('2', 'BTC', '2026-02-10T00:00:00.000Z')]);
      await record(store, BOB, [
        credit('3', 'ETH', '2026-03-01T00:00:00.000Z'),
        deposit('1', 'ETH', dep),
        { type: 'SettleTransaction', transactionId: dep, by: { system: 'test' } },
        withdrawal('1', 'ETH'),
        deposit('0.5', 'BTC'),
      ]);
    });
    now = new Date().toISOString();
  }, 120_000);
  afterAll(async () => {
    await workspace.close();
  });

  it("a period's trial balance counts by value date, and its closing is the next period's opening", async () => {
    const jan = await jsonOf(['trial-balance', '--from', '2026-01-01', '--to', '2026-01-31', '--json']);
    const feb = await jsonOf(['trial-balance', '--from', '2026-02-01', '--to', '2026-02-28', '--json']);
    expect([jan.code, feb.code]).toEqual([0, 0]);
    const janLines: Line[] = jan.body.period.lines;
    const febLines: Line[] = feb.body.period.lines;
    // The credit dated 15 January counts in January although it was recorded today.
    expect(janLines.find((l) => l.account === 'customer:*:available' && l.assetId === 'BTC')).toMatchObject({
      opening: '0',
      increases: '5',
      closing: '5',
    });
    expect(febLines.find((l) => l.account === 'customer:*:available' && l.assetId === 'BTC')).toMatchObject({
      opening: '5',
      increases: '2',
      closing: '7',
    });
    for (const l of janLines) {
      const next = febLines.find((f) => f.account === l.account && f.assetId === l.assetId);
      expect([l.account, l.assetId, next?.opening ?? '0']).toEqual([l.account, l.assetId, l.closing]);
    }
    expect(jan.body.period.imbalances).toEqual([]);
    // USD at the end of the period: every account valued, the whole summing to zero.
    expect(jan.body.period.prices).toMatchObject({ at: '2026-01-31T23:59:59.999Z', source: 'simulated' });
    const usdSum = (jan.body.period.usd as { closing: string }[]).reduce((s, u) => s.plus(u.closing), money(0));
    expect(usdSum.abs().lte('0.05')).toBe(true);
    expect(money(jan.body.period.usd.find((u: { account: string }) => u.account === 'customer:*:available').closing).gt(0)).toBe(true);
    await expect(runCli(['trial-balance', '--at', '2026-01-31', '--from', '2026-01-01', '--to', '2026-01-31'])).rejects.toThrow(
      'Give --at (the books at one moment) or --from and --to (a period), not both.',
    );
  });

  it('a journal export of a period sums to zero per asset, in JSON and in CSV', async () => {
    const j = await jsonOf(['journal', '--from', '2026-01-01', '--to', now, '--json']);
    expect(j.code).toBe(0);
    expect(j.body.postings.length).toBeGreaterThan(10);
    expect(j.body.totals).toEqual([
      { assetId: 'BTC', postings: expect.any(Number), sum: '0' },
      { assetId: 'ETH', postings: expect.any(Number), sum: '0' },
    ]);
    const csv = await cli(['journal', '--from', '2026-01-01', '--to', '2026-01-31', '--csv']);
    const rows = csv.out
      .trim()
      .split(/\r?\n/)
      .filter((r) => r !== '')
      .map((r) => r.split(','));
    expect(rows[0]).toEqual([
      'position',
      'event_id',
      'booking_date',
      'value_date',
      'event_type',
      'transaction_id',
      'account',
      'asset',
      'amount',
    ]);
    // January holds Alice's credit only: into her available, out of the staff adjustments account.
    expect(rows.slice(1).map((r) => [r[3], r[6]!.split(':')[0], r[7], r[8]])).toEqual([
      ['2026-01-15T12:00:00.000Z', 'customer', 'BTC', '5'],
      ['2026-01-15T12:00:00.000Z', 'house', 'BTC', '-5'],
    ]);
    await expect(runCli(['journal', '--from', '2026-01-01', '--to', '2026-01-31'])).rejects.toThrow('Give --csv or --json.');
  });

  it("the liabilities' totals equal the trial balance's customer accounts, and a customer's proof verifies while a tampered one does not", async () => {
    const l = await jsonOf(['liabilities', '--at', now, '--json', '--publish']);
    expect(l.code).toBe(0);
    expect(l.body.totals).toEqual({ BTC: '7', ETH: '3.99' });
    expect(l.body.customers).toHaveLength(2);
    const tb = await jsonOf(['trial-balance', '--from', '2026-01-01', '--to', now, '--json']);
    for (const asset of ['BTC', 'ETH']) {
      const owed = (tb.body.period.lines as Line[])
        .filter((x) => x.assetId === asset && ['customer:*:available', 'customer:*:pending-out', 'customer:*:staked'].includes(x.account))
        .reduce((s, x) => s.plus(x.closing), money(0));
      expect(owed.eq(l.body.totals[asset])).toBe(true);
    }
    const index = l.body.customers.findIndex((c: { userId: string }) => c.userId === BOB);
    const proof = inclusionProof(l.body.at, l.body.customers, index);
    expect(proof.root).toBe(l.body.root);
    const file = path.join(workspace.dataDir, 'proof.json');
    fs.writeFileSync(file, JSON.stringify(proof));
    const ok = await cli(['verify-proof', file, '--root', l.body.root]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('ok: the balances ETH 3.99 are included');
    fs.writeFileSync(file, JSON.stringify({ ...proof, balances: { ETH: '39.9' } }));
    const tampered = await cli(['verify-proof', file]);
    expect(tampered.code).toBe(1);
    expect(tampered.out).toContain('FAIL: the leaf and path lead to');
    await expect(runCli(['liabilities', '--at', '2999-01-01'])).rejects.toThrow('--at 2999-01-01 is in the future');
  });

  it('imports custody reserves and sets them against the liabilities per asset; a bad file is refused and records nothing', async () => {
    const file = path.join(workspace.dataDir, 'reserves.csv');
    fs.writeFileSync(file, 'asset,amount\nBTC,7.5\nETH,2\n');
    const r = await jsonOf(['reserves', 'import', file, '--json']);
    expect(r.code).toBe(1);
    expect(r.body.lines).toEqual([
      { assetId: 'BTC', reserves: '7.5', liabilities: '7', difference: '0.5' },
      { assetId: 'ETH', reserves: '2', liabilities: '3.99', difference: '-1.99' },
    ]);
    expect(r.body.short).toEqual(['ETH']);
    fs.writeFileSync(file, 'asset,amount\nBTC,lots\n');
    await expect(runCli(['reserves', 'import', file])).rejects.toThrow(`${file} line 2: the amount must be a decimal of at least 0.`);
    const again = await jsonOf(['reserves', '--json']);
    expect(again.body.lines[0]).toMatchObject({ assetId: 'BTC', reserves: '7.5' });
  });

  it('close locks a month: afterwards an entry dated inside it is refused by the wallet, one after it is not', async () => {
    const closed = await cli(['close', '--period', '2026-01']);
    expect([closed.code, closed.out]).toEqual([0, 'Closed 2026-01: entries dated up to 2026-01-31T23:59:59.999Z are refused from now on.']);
    await expect(runCli(['close', '--period', '2026-01'])).rejects.toThrow(
      '2026-01 is closed already (the books are closed through 2026-01-31T23:59:59.999Z).',
    );
    await expect(runCli(['close', '--period', '2999-01'])).rejects.toThrow('2999-01 has not ended yet');
    await expect(runCli(['close', '--period', '2026-13'])).rejects.toThrow('--period must be a month like 2026-01, not "2026-13".');
    await withLedger(loadConfig(), async (_database, store) => {
      const closedThrough = await readClosedThrough(store);
      expect(closedThrough).toBe('2026-01-31T23:59:59.999Z');
      const state = foldWallet(await store.readStream(walletStream(ALICE)));
      const backdated = { ...credit('1', 'BTC', '2026-01-20T00:00:00.000Z'), closedThrough } as WalletCommand;
      expect(() => decide(backdated, state)).toThrow(WalletError);
      const open = { ...credit('1', 'BTC', '2026-02-20T00:00:00.000Z'), closedThrough } as WalletCommand;
      expect(decide(open, state)).toHaveLength(1);
    });
  });
});
