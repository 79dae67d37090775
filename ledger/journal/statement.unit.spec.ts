import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { money } from '../money.js';
import { decide, evolve, initialState, type WalletCommand, type WalletState } from '../wallet/wallet.js';
import { deposit, recorded } from '../wallet/wallet.arbitraries.js';
import { buildStatement, statementAddsUp, statementCsv, type Statement } from './statement.js';

const USER = '00000000-0000-4000-8000-000000000001';
const STREAM = `wallet-${USER}`;

describe('statement', () => {
  it('lists every change to the balance with the balance after it, and adds up per asset', () => {
    let state: WalletState = initialState();
    const stakeId = randomUUID();
    const dep = randomUUID();
    const commands: WalletCommand[] = [
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
    ];
    const recordedEvents = [];
    let minute = 0;
    for (const c of commands) {
      for (const e of decide(c, state)) {
        state = evolve(state, e);
        recordedEvents.push({
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
    // From after the first credit: it is in the opening balance, not a line.
    const s = buildStatement(USER, recordedEvents, new Date(Date.UTC(2026, 10, 1, 10, 1)), new Date(Date.UTC(2026, 10, 1, 23)));
    expect(s.assets).toEqual([
      { assetId: 'BTC', opening: '5', credits: '99', debits: '-1', closing: '103', pendingDeposits: '0', pendingWithdrawals: '0' },
    ]);
    expect(s.lines.map((l) => [l.description, l.amount, l.fee, l.balanceAfter])).toEqual([
      ['Deposit settled', '99', '1', '104'],
      ['Stake opened', '-1', '0', '103'],
    ]);
    expect(statementAddsUp(s)).toBe(true);
  });
});

describe("the customer's copy of a statement", () => {
  it('shows a transaction hidden from the customer as a "Balance adjustment" line, so each line reconciles with the balance', () => {
    const hidden: WalletCommand = {
      ...(recorded('2', 'Complete', 'ETH') as Extract<WalletCommand, { type: 'RecordTransaction' }>),
      isHidden: true,
    };
    let state: WalletState = initialState();
    const events = [];
    for (const c of [recorded('3', 'Complete', 'ETH'), hidden]) {
      for (const e of decide(c, state)) {
        state = evolve(state, e);
        events.push({
          eventId: randomUUID(),
          streamId: STREAM,
          revision: 0n,
          position: { commit: 0n, prepare: 0n },
          version: 1,
          metadata: {} as never,
          recordedAt: new Date(Date.UTC(2026, 10, 1)),
          ...e,
        });
      }
    }
    const period = [new Date(Date.UTC(2026, 9, 1)), new Date(Date.UTC(2026, 11, 1))] as const;
    const operator = buildStatement(USER, events, ...period);
    const customer = buildStatement(USER, events, ...period, { hideHidden: true });
    expect(operator.lines.map((l) => l.amount)).toEqual(['3', '2']);
    expect(customer.lines.map((l) => [l.description, l.type, l.amount, l.balanceAfter])).toEqual([
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
  it('neutralises a cell that a spreadsheet would run, and keeps signed amounts as numbers', () => {
    const s: Statement = {
      userId: USER,
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-30T23:59:59.999Z',
      assets: [
        { assetId: 'BTC', opening: '1', credits: '0', debits: '-0.5', closing: '0.5', pendingDeposits: '0', pendingWithdrawals: '0' },
      ],
      lines: [
        {
          at: '2026-11-02T10:00:00.000Z',
          assetId: 'BTC',
          transactionId: null,
          type: 'adjustment',
          description: '=HYPERLINK("http://evil.example","statement")',
          amount: '-0.5',
          fee: '0',
          balanceAfter: '0.5',
          eventId: randomUUID(),
        },
      ],
    };
    const rows = statementCsv(s).split('\r\n');
    expect(rows[2]).toBe(`2026-11-02T10:00:00.000Z,BTC,,adjustment,"'=HYPERLINK(""http://evil.example"",""statement"")",-0.5,0,0.5`);
    expect(rows[3]).toBe('2026-11-30T23:59:59.999Z,BTC,,closing,Closing balance,,,0.5');
  });
});
