import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { commandFor, deposit, recorded, stepArb, withdrawal } from './wallet.arbitraries.js';
import { money } from '../money.js';
import { ASSET_IDS } from '../assets.js';
import type { WalletEvent } from './events.js';
import {
  availableBalance,
  CAPACITY_MESSAGE,
  decide,
  effectiveBalance,
  fold,
  WalletError,
  type WalletCommand,
  assetBalance,
} from './wallet.js';

/** given events, when command, then events (or an error) */
function given(events: WalletEvent[]) {
  return {
    when(command: WalletCommand) {
      const run = () => decide(command, fold(events));
      return {
        then: (check: (events: WalletEvent[]) => void) => check(run()),
        thenRefuses: (code: WalletError['code'], message?: string) => {
          try {
            run();
          } catch (err) {
            expect(err).toBeInstanceOf(WalletError);
            expect((err as WalletError).code).toBe(code);
            if (message) expect((err as WalletError).message).toBe(message);
            return;
          }
          throw new Error('expected the command to be refused');
        },
      };
    },
  };
}

/** The events a command produces against an empty history plus `events`. */
const run = (events: WalletEvent[], command: WalletCommand) => [...events, ...decide(command, fold(events))];

describe('wallet decider', () => {
  it('a deposit request is a pending deposit of the amount less the 1% fee', () => {
    given([])
      .when(deposit('100'))
      .then((events) => {
        expect(events).toHaveLength(1);
        const e = events[0]!;
        expect(e.type).toBe('wallet.deposit-requested');
        if (e.type !== 'wallet.deposit-requested') return;
        expect(e.data.requestedAmount).toBe('100');
        expect(e.data.fee).toBe('1');
        expect(e.data.amount).toBe('99');
        const state = fold(events);
        expect(assetBalance(state, 'BTC').pendingDeposits.toFixed()).toBe('99');
        expect(assetBalance(state, 'BTC').balance.toFixed()).toBe('0');
        expect(availableBalance(state, 'BTC').toFixed()).toBe('0');
        expect(effectiveBalance(state, 'BTC').toFixed()).toBe('99');
      });
  });

  it('a deposit moves the balance only when settled', () => {
    const id = randomUUID();
    const history = run([], deposit('2', 'ETH', id));
    given(history)
      .when({ type: 'SettleTransaction', transactionId: id, by: { system: 'test' } })
      .then((events) => {
        expect(events[0]).toMatchObject({
          type: 'wallet.transaction-settled',
          data: { transactionId: id, assetId: 'ETH', amount: '1.98' },
        });
        const state = fold([...history, ...events]);
        expect(assetBalance(state, 'ETH').balance.toFixed()).toBe('1.98');
        expect(assetBalance(state, 'ETH').pendingDeposits.toFixed()).toBe('0');
      });
  });

  it('a withdrawal reserves amount x 1.01 as a pending (negative) withdrawal', () => {
    const history = run([], recorded('10.1'));
    given(history)
      .when(withdrawal('10'))
      .then((events) => {
        expect(events[0]).toMatchObject({
          type: 'wallet.withdrawal-requested',
          data: { amount: '-10.1', fee: '0.1', requestedAmount: '10' },
        });
        const state = fold([...history, ...events]);
        expect(assetBalance(state, 'BTC').pendingWithdrawals.toFixed()).toBe('-10.1');
        expect(availableBalance(state, 'BTC').toFixed()).toBe('0');
      });
  });

  it('allows a withdrawal whose amount x 1.01 equals the available balance exactly, refuses one unit more', () => {
    const history = run([], recorded('1.01'));
    given(history)
      .when(withdrawal('1'))
      .then((events) => expect(events).toHaveLength(1));
    given(history).when(withdrawal('1.000000000000000001')).thenRefuses('insufficient_balance', 'Insufficient BTC balance');
  });

  it('counts pending withdrawals against the available balance, not pending deposits', () => {
    let history = run([], recorded('2.02'));
    history = run(history, withdrawal('1'));
    history = run(history, deposit('500'));
    given(history)
      .when(withdrawal('1'))
      .then((events) => expect(events).toHaveLength(1));
    given(run(history, withdrawal('1')))
      .when(withdrawal('0.000000000000000001'))
      .thenRefuses('insufficient_balance');
  });

  it('charges the fee on 18-decimal amounts rounded up to 18 decimals', () => {
    given(run([], recorded('1')))
      .when(withdrawal('0.000000000000000001'))
      .then((events) => {
        expect(events[0]).toMatchObject({ data: { fee: '0.000000000000000001', amount: '-0.000000000000000002' } });
      });
  });

  it('a send reserves exactly its amount (no fee) and is refused beyond the available balance', () => {
    const history = run([], recorded('2'));
    const send = (amount: string): WalletCommand => ({
      type: 'RequestSend',
      transactionId: randomUUID(),
      assetId: 'BTC',
      amount: money(amount),
      recipientAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
      sentAt: '2026-11-01T10:00:00.000Z',
    });
    given(history)
      .when(send('2'))
      .then((events) => {
        expect(events[0]).toMatchObject({
          type: 'wallet.send-requested',
          data: { amount: '-2', fee: '0', recipientAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' },
        });
      });
    given(history)
      .when(send('2.000000000000000001'))
      .thenRefuses(
        'insufficient_balance',
        'Insufficient funds, this wallet might not have enough balance to send or pending transactions.',
      );
  });

  it('a failed withdrawal gives the reserved amount back', () => {
    const id = randomUUID();
    const history = run(run([], recorded('5.05')), withdrawal('5', 'BTC', id));
    given(history)
      .when({ type: 'FailTransaction', transactionId: id, reason: 'bank refused' })
      .then((events) => {
        expect(events[0]).toMatchObject({ type: 'wallet.transaction-failed', data: { amount: '-5.05', reason: 'bank refused' } });
        expect(availableBalance(fold([...history, ...events]), 'BTC').toFixed()).toBe('5.05');
      });
  });

  it('a settled withdrawal leaves the wallet; the available balance does not move again', () => {
    const id = randomUUID();
    const history = run(run([], recorded('5.05')), withdrawal('5', 'BTC', id));
    const after = run(history, { type: 'SettleTransaction', transactionId: id, by: { system: 'test' } });
    const b = assetBalance(fold(after), 'BTC');
    expect([b.balance.toFixed(), b.pendingWithdrawals.toFixed(), availableBalance(fold(after), 'BTC').toFixed()]).toEqual(['0', '0', '0']);
  });

  it('keeps Complete and Failed final: a status change on them is refused, the same status is a no-op', () => {
    const id = randomUUID();
    const history = run(run([], deposit('1', 'BTC', id)), { type: 'SettleTransaction', transactionId: id, by: { system: 'test' } });
    given(history).when({ type: 'FailTransaction', transactionId: id, reason: null }).thenRefuses('invalid_state');
    given(history)
      .when({ type: 'SettleTransaction', transactionId: id, by: { system: 'test' } })
      .then((events) => expect(events).toEqual([]));
    given([])
      .when({ type: 'SettleTransaction', transactionId: randomUUID(), by: { system: 'test' } })
      .thenRefuses('not_found');
  });

  it('refuses zero, negative and over-precise amounts, and a reused transaction id', () => {
    given([]).when(deposit('0')).thenRefuses('invalid_amount', 'Please enter a valid amount');
    given([]).when(deposit('-1')).thenRefuses('invalid_amount');
    given([]).when(deposit('0.0000000000000000001')).thenRefuses('invalid_amount');
    const id = randomUUID();
    given(run([], deposit('1', 'BTC', id)))
      .when(deposit('1', 'BTC', id))
      .thenRefuses('duplicate');
  });

  it('a staff-recorded debit is held to the available balance; a Failed one moves nothing', () => {
    given(run([], recorded('1')))
      .when(recorded('-1.5'))
      .thenRefuses('insufficient_balance');
    given([])
      .when(recorded('-1.5', 'Failed'))
      .then((events) => {
        expect(availableBalance(fold(events), 'BTC').toFixed()).toBe('0');
      });
  });

  it('refuses what would take an amount or a total of the wallet to 10^20 or beyond (numeric(38, 18) could not store it)', () => {
    const big = '99999999999999999999'; // the largest whole amount a request may carry
    const id = randomUUID();
    // One such deposit is held (less its fee) as pending; a second would make the pending total 1.98 x 10^20.
    const first = run([], deposit(big, 'DOGE', id));
    given(first).when(deposit(big, 'DOGE')).thenRefuses('invalid_amount', CAPACITY_MESSAGE);
    given(first)
      .when(deposit('1', 'BTC'))
      .then((events) => expect(events).toHaveLength(1)); // other assets are not touched
    // Settled, it is the balance: a staff-recorded credit on top is refused too.
    const settled = run(first, { type: 'SettleTransaction', transactionId: id, by: { system: 'test' } });
    given(settled)
      .when(recorded(big, 'Complete', 'DOGE'))
      .thenRefuses('invalid_amount', CAPACITY_MESSAGE);
    given(settled)
      .when(recorded('1', 'Complete', 'DOGE'))
      .then((events) => expect(events).toHaveLength(1));
    // A swap whose received leg would not fit is refused, though the spent side is available.
    given(settled)
      .when({
        type: 'RequestSwap',
        requestId: randomUUID(),
        fromTransactionId: randomUUID(),
        toTransactionId: randomUUID(),
        fromAssetId: 'DOGE',
        toAssetId: 'SOL',
        fromAmount: money('90000000000000000000'),
        fromPrice: money('150'),
        toPrice: money('0.1'),
        sentAt: new Date().toISOString(),
      })
      .thenRefuses('invalid_amount', CAPACITY_MESSAGE);
    // The refusal names the limit exactly: the same total less one unit of 10^-18 is accepted.
    given(run([], recorded('99999999999999999999.999999999999999998')))
      .when(recorded('0.000000000000000001'))
      .then((events) => expect(events).toHaveLength(1));
    given(run([], recorded('99999999999999999999.999999999999999999')))
      .when(recorded('0.000000000000000001'))
      .thenRefuses('invalid_amount', CAPACITY_MESSAGE);
  });

  it('edits type and note without touching money', () => {
    const id = randomUUID();
    const history = run([], recorded('3', 'Complete', 'SOL', id));
    given(history)
      .when({ type: 'EditTransaction', transactionId: id, txType: 'deposit', note: 'corrected' })
      .then((events) => {
        expect(events).toEqual([{ type: 'wallet.transaction-edited', data: { transactionId: id, type: 'deposit', note: 'corrected' } }]);
        expect(assetBalance(fold([...history, ...events]), 'SOL').balance.toFixed()).toBe('3');
      });
  });
});

describe('wallet decider, property', () => {
  it('no sequence of commands makes an available balance negative, and balances equal the sums the spec defines', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), (steps) => {
        let history: WalletEvent[] = [];
        for (const step of steps) {
          const command = commandFor(step, history);
          if (!command) continue;
          try {
            history = run(history, command);
          } catch (err) {
            if (!(err instanceof WalletError)) throw err;
          }
          const state = fold(history);
          for (const asset of ASSET_IDS) expect(availableBalance(state, asset).isNegative()).toBe(false);
        }
        // Recompute from the rows' final statuses, independently of evolve.
        const status = new Map<string, string>();
        const rows: { id: string; asset: string; amount: string }[] = [];
        for (const e of history) {
          if (e.type === 'wallet.transaction-settled') status.set(e.data.transactionId, 'Complete');
          else if (e.type === 'wallet.transaction-failed') status.set(e.data.transactionId, 'Failed');
          else if (e.type !== 'wallet.transaction-edited' && !e.type.startsWith('wallet.approval-')) {
            if (!('transactionId' in e.data && 'amount' in e.data)) continue;
            rows.push({ id: e.data.transactionId, asset: e.data.assetId, amount: e.data.amount });
            status.set(e.data.transactionId, e.type === 'wallet.transaction-recorded' ? e.data.status : 'Pending');
          }
        }
        const state = fold(history);
        for (const asset of ASSET_IDS) {
          const mine = rows.filter((r) => r.asset === asset);
          const sum = (f: (r: { id: string; amount: string }) => boolean) => mine.filter(f).reduce((s, r) => s.plus(r.amount), money(0));
          const b = assetBalance(state, asset);
          expect(b.balance.toFixed()).toBe(sum((r) => status.get(r.id) === 'Complete').toFixed());
          expect(b.pendingDeposits.toFixed()).toBe(sum((r) => status.get(r.id) === 'Pending' && !money(r.amount).isNegative()).toFixed());
          expect(b.pendingWithdrawals.toFixed()).toBe(sum((r) => status.get(r.id) === 'Pending' && money(r.amount).isNegative()).toFixed());
        }
      }),
      { numRuns: 300 },
    );
  });
});
