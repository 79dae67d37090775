import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { money } from '../money.js';
import { decide, evolve, initialState, type WalletCommand, type WalletState } from '../wallet/wallet.js';
import { deposit, recorded, withdrawal } from '../wallet/wallet.arbitraries.js';
import { buildStatement, statementAddsUp, statementCsv } from './statement.js';

const USER = '00000000-0000-4000-8000-000000000001';
const STREAM = `wallet-${USER}`;

/** Decides the commands in turn, one minute apart from 2026-11-01 10:00, as the log would record them. */
function history(commands: WalletCommand[]) {
  let state: WalletState = initialState();
  const events = [];
  let minute = 0;
  for (const c of commands) {
    for (const e of decide(c, state)) {
      state = evolve(state, e);
      events.push({
        eventId: randomUUID(),
        streamId: STREAM,
        revision: 0n,
        position: { commit: 0n, prepare: 0n },
        version: 1,
        metadata: {} as never,
        recordedAt: new Date(Date.UTC(2026, 10, 1, 10, minute++)),
        ...e,
      });
    }
  }
  return events;
}

describe('statement', () => {
  it('lists each booked movement gross with its fee as a line of its own and the running balance, and adds up per asset', () => {
    const stakeId = randomUUID();
    const dep = randomUUID();
    const events = history([
      recorded('5', 'Complete', 'BTC'),
      deposit('100', 'BTC', dep),
      { type: 'SettleTransaction', transactionId: dep, by: { system: 'test' } },
      {
        type: 'OpenStake',
        stakeId,
        assetId: 'BTC',
        amount: money('1'),
        durationDays: 7,
        rate: money('2.7'),
        sentAt: '2026-11-01T10:00:00.000Z',
      },
    ]);
    // From after the first credit: it is in the opening balance, not a line.
    const s = buildStatement(USER, events, new Date(Date.UTC(2026, 10, 1, 10, 1)), new Date(Date.UTC(2026, 10, 1, 23)));
    expect(s.assets).toEqual([
      {
        assetId: 'BTC',
        opening: '5',
        credits: '100',
        debits: '-1',
        fees: '-1',
        closing: '103',
        pendingDeposits: '0',
        pendingWithdrawals: '0',
        available: '103',
      },
    ]);
    expect(s.lines.map((l) => [l.type, l.description, l.amount, l.balance])).toEqual([
      ['deposit', 'Deposit settled', '100', '105'],
      ['fee', 'Fee: Deposit', '-1', '104'],
      ['stake', 'Stake opened', '-1', '103'],
    ]);
    expect(s.lines[0]!.bookingDate).toBe('2026-11-01T10:02:00.000Z');
    expect(s.pending).toEqual([]);
    expect(statementAddsUp(s)).toBe(true);
  });

  it('one sign rule: a withdrawal reads its amount out and its fee out; pending items and the available balance follow the closing', () => {
    const out = randomUUID();
    const held = randomUUID();
    const announced = randomUUID();
    const events = history([
      recorded('50', 'Complete', 'ETH'),
      withdrawal('10', 'ETH', out),
      { type: 'SettleTransaction', transactionId: out, by: { system: 'test' } },
      withdrawal('20', 'ETH', held),
      deposit('2', 'SOL', announced),
    ]);
    const s = buildStatement(USER, events, new Date(Date.UTC(2026, 10, 1)), new Date(Date.UTC(2026, 10, 2)));
    expect(s.lines.filter((l) => l.assetId === 'ETH').map((l) => [l.type, l.amount, l.balance])).toEqual([
      ['adjustment', '50', '50'],
      ['withdrawal', '-10', '40'],
      ['fee', '-0.1', '39.9'],
    ]);
    expect(s.pending.map((l) => [l.assetId, l.transactionId, l.type, l.amount, l.balance])).toEqual([
      ['ETH', held, 'withdrawal', '-20', ''],
      ['ETH', held, 'fee', '-0.2', ''],
      ['SOL', announced, 'deposit', '2', ''],
      ['SOL', announced, 'fee', '-0.02', ''],
    ]);
    // An asset with only pending activity is on the statement, with its pending amounts and nothing available.
    expect(s.assets.map((a) => [a.assetId, a.closing, a.pendingDeposits, a.pendingWithdrawals, a.available])).toEqual([
      ['ETH', '39.9', '0', '-20.2', '19.7'],
      ['SOL', '0', '1.98', '0', '0'],
    ]);
    const csv = statementCsv(s).trim().split('\r\n');
    expect(csv[0]).toBe('section,booking_date,value_date,asset,transaction_id,type,description,reference,counterparty,amount,balance');
    expect(csv.map((r) => r.split(',')[0])).toEqual([
      'section',
      'opening',
      'booked',
      'booked',
      'booked',
      'closing',
      'pending',
      'pending',
      'available',
      'opening',
      'closing',
      'pending',
      'pending',
      'available',
    ]);
    expect(statementAddsUp(s)).toBe(true);
  });

  it("shows a transaction's type as staff last edited it, as the transaction list does, and a manual entry's own value date", () => {
    const dep = randomUUID();
    const backdated = { ...(recorded('1', 'Complete', 'BTC') as Extract<WalletCommand, { type: 'RecordTransaction' }>) };
    backdated.sentAt = '2026-10-15T00:00:00.000Z';
    const events = history([
      deposit('10', 'BTC', dep),
      { type: 'SettleTransaction', transactionId: dep, by: { system: 'test' } },
      { type: 'EditTransaction', transactionId: dep, txType: 'adjustment' },
      backdated,
    ]);
    const s = buildStatement(USER, events, new Date(Date.UTC(2026, 10, 1)), new Date(Date.UTC(2026, 10, 2)));
    expect(s.lines.map((l) => [l.type, l.description])).toEqual([
      ['adjustment', 'Adjustment settled'],
      ['fee', 'Fee: Adjustment'],
      ['adjustment', 'Adjustment recorded'],
    ]);
    expect(s.lines[2]!.valueDate).toBe('2026-10-15T00:00:00.000Z');
    expect(s.lines[2]!.bookingDate).toBe('2026-11-01T10:03:00.000Z');
  });
});

describe("the customer's copy of a statement", () => {
  it('shows a transaction hidden from the customer as a "Balance adjustment" line, so each line reconciles with the balance', () => {
    const hidden: WalletCommand = {
      ...(recorded('2', 'Complete', 'ETH') as Extract<WalletCommand, { type: 'RecordTransaction' }>),
      isHidden: true,
    };
    const events = history([recorded('3', 'Complete', 'ETH'), hidden]);
    const period = [new Date(Date.UTC(2026, 9, 1)), new Date(Date.UTC(2026, 11, 1))] as const;
    const operator = buildStatement(USER, events, ...period);
    const customer = buildStatement(USER, events, ...period, { hideHidden: true });
    expect(operator.lines.map((l) => l.amount)).toEqual(['3', '2']);
    expect(customer.lines.map((l) => [l.description, l.type, l.amount, l.balance])).toEqual([
      ['Adjustment recorded', 'adjustment', '3', '3'],
      ['Balance adjustment', 'adjustment', '2', '5'],
    ]);
    expect(customer.lines[1]!.transactionId).toBeNull();
    expect(customer.assets).toEqual(operator.assets);
    expect(customer.assets[0]!.closing).toBe('5');
    expect(statementAddsUp(customer)).toBe(true);
  });
});

describe('the statement as CSV', () => {
  it('neutralises a counterparty or reference a spreadsheet would run, and keeps signed amounts as numbers', () => {
    const hostile = { ...(recorded('2', 'Complete', 'BTC') as Extract<WalletCommand, { type: 'RecordTransaction' }>) };
    hostile.senderAddress = '=HYPERLINK("http://evil.example","statement")';
    hostile.txid = '@SUM(A1:A9)';
    const events = history([hostile, withdrawal('0.5', 'BTC')]);
    const s = buildStatement(USER, events, new Date('2026-11-01T00:00:00Z'), new Date('2026-11-30T23:59:59.999Z'));
    const csv = statementCsv(s);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""statement"")"`);
    expect(csv).toContain(`"'@SUM(A1:A9)"`);
    expect(csv).not.toMatch(/,=HYPERLINK|,@SUM/);
    // The pending withdrawal's debit keeps its sign as a number.
    expect(csv).toMatch(/,-0\.505,|,-0\.5,/);
  });
});
