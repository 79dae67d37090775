import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { money } from '../money.js';
import { recorded, withdrawal } from './wallet.arbitraries.js';
import type { WalletEvent } from './events.js';
import { assetBalance, availableBalance, decide, fold, WalletError, type WalletCommand } from './wallet.js';

const run = (events: WalletEvent[], command: WalletCommand) => [...events, ...decide(command, fold(events))];
const refusal = (events: WalletEvent[], command: WalletCommand) => {
  try {
    decide(command, fold(events));
  } catch (err) {
    if (err instanceof WalletError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected the command to be refused');
};

const swap = (fromAmount: string, over: Partial<Extract<WalletCommand, { type: 'RequestSwap' }>> = {}): WalletCommand => ({
  type: 'RequestSwap',
  requestId: randomUUID(),
  fromTransactionId: randomUUID(),
  toTransactionId: randomUUID(),
  fromAssetId: 'BTC',
  toAssetId: 'ETH',
  fromAmount: money(fromAmount),
  fromPrice: money('97000'),
  toPrice: money('3400'),
  sentAt: '2026-11-01T10:00:00.000Z',
  ...over,
});

const stake = (amount: string, over: Partial<Extract<WalletCommand, { type: 'OpenStake' }>> = {}): WalletCommand => ({
  type: 'OpenStake',
  stakeId: randomUUID(),
  assetId: 'BTC',
  amount: money(amount),
  durationDays: 7,
  rate: money('2.7'),
  sentAt: '2026-11-01T10:00:00.000Z',
  ...over,
});

describe('swap', () => {
  it('records both legs in one decision: the from-amount out, the net in, the same request id in both notes', () => {
    const history = run([], recorded('1'));
    const command = swap('0.5');
    const events = decide(command, fold(history));
    expect(events.map((e) => e.type)).toEqual(['wallet.swap-requested', 'wallet.swap-requested']);
    const [from, to] = events as Extract<WalletEvent, { type: 'wallet.swap-requested' }>[];
    const req = (command as { requestId: string }).requestId;
    expect(from!.data).toMatchObject({
      leg: 'from',
      assetId: 'BTC',
      amount: '-0.5',
      fee: '0.005',
      requestId: req,
      linkedTransactionId: to!.data.transactionId,
    });
    expect(to!.data).toMatchObject({
      leg: 'to',
      assetId: 'ETH',
      amount: '14.122058823529411764',
      fee: '0',
      requestId: req,
      linkedTransactionId: from!.data.transactionId,
    });
    expect(from!.data.note).toBe(`Swap: BTC → ETH (Req ID: ${req})`);
    expect(to!.data.note).toBe(from!.data.note);
    const state = fold([...history, ...events]);
    expect(availableBalance(state, 'BTC').toFixed()).toBe('0.5');
    expect(assetBalance(state, 'ETH').pendingDeposits.toFixed()).toBe('14.122058823529411764');
  });

  it('is refused for equal tokens, beyond max(0, balance + pending withdrawals), and for a zero amount', () => {
    const history = run(run([], recorded('1.01')), withdrawal('0.5'));
    expect(refusal(history, swap('0.1', { toAssetId: 'BTC' }))).toEqual({
      code: 'invalid_amount',
      message: 'From and to tokens must differ.',
    });
    // 1.01 - 0.505 = 0.505 available
    expect(refusal(history, swap('0.505000000000000001'))).toEqual({ code: 'insufficient_balance', message: 'Insufficient balance' });
    expect(decide(swap('0.505'), fold(history))).toHaveLength(2);
    expect(refusal(history, swap('0')).code).toBe('invalid_amount');
  });

  it('settles both legs together, and fails both together, from either leg', () => {
    const command = swap('1') as Extract<WalletCommand, { type: 'RequestSwap' }>;
    const history = run(run([], recorded('1')), command);
    const settle = decide({ type: 'SettleTransaction', transactionId: command.toTransactionId, by: { system: 'test' } }, fold(history));
    expect(settle.map((e) => [e.type, (e.data as { transactionId: string }).transactionId])).toEqual([
      ['wallet.transaction-settled', command.toTransactionId],
      ['wallet.transaction-settled', command.fromTransactionId],
    ]);
    const settled = fold([...history, ...settle]);
    expect(assetBalance(settled, 'BTC').balance.toFixed()).toBe('0');
    expect(assetBalance(settled, 'ETH').balance.toFixed()).toBe('28.244117647058823529');
    const fail = decide({ type: 'FailTransaction', transactionId: command.fromTransactionId, reason: null }, fold(history));
    expect(fail.map((e) => e.type)).toEqual(['wallet.transaction-failed', 'wallet.transaction-failed']);
    const failed = fold([...history, ...fail]);
    expect([availableBalance(failed, 'BTC').toFixed(), assetBalance(failed, 'ETH').pendingDeposits.toFixed()]).toEqual(['1', '0']);
  });
});

describe('stake', () => {
  it('locks the principal at once and schedules the payout at maturity with the estimated earnings', () => {
    const history = run([], recorded('1'));
    const command = stake('0.0117769844');
    const [opened] = decide(command, fold(history));
    expect(opened).toMatchObject({
      type: 'wallet.stake-opened',
      data: {
        amount: '-0.0117769844',
        principal: '0.0117769844',
        durationDays: 7,
        rate: '2.7',
        maturesAt: '2026-11-08T10:00:00.000Z',
        estimatedEarnings: '0.000006098219319452',
      },
    });
    const state = fold([...history, opened!]);
    expect(assetBalance(state, 'BTC').balance.toFixed()).toBe('0.9882230156');
  });

  it('takes rate and limits from the catalogue: another rate, another duration, DOT, or amounts out of range are refused', () => {
    const history = run(run([], recorded('100')), recorded('10000', 'Complete', 'DOT'));
    expect(refusal(history, stake('0.02', { rate: money('9.1') }))).toEqual({
      code: 'invalid_amount',
      message: 'Stake plan information or user context is missing.',
    });
    expect(refusal(history, stake('0.02', { durationDays: 8 })).message).toBe('Stake plan information or user context is missing.');
    expect(refusal(history, stake('10', { assetId: 'DOT' })).message).toBe('Stake plan information or user context is missing.');
    expect(refusal(history, stake('0.0117769843')).message).toBe('Amount must be at least 0.0117769844 BTC');
    expect(refusal(history, stake('0.05', { durationDays: 30, rate: money('9.1') })).message).toBe(
      'Amount must be at least 0.058884922 BTC',
    );
    expect(refusal(history, stake('2.2376270414')).message).toBe('Amount cannot exceed 2.2376270413 BTC');
    expect(refusal(run([], recorded('0.01')), stake('0.0117769844')).message).toBe('Insufficient balance. You have 0.01 BTC available.');
    expect(refusal(history, stake('-1')).message).toBe('Please enter a valid positive amount.');
  });

  it('pays principal plus earnings once, only from maturity on; a second payout records nothing', () => {
    const command = stake('1', { durationDays: 14, rate: money('4.7') }) as Extract<WalletCommand, { type: 'OpenStake' }>;
    const history = run(run([], recorded('1')), command);
    const payout = (now: string): WalletCommand => ({
      type: 'PayOutStake',
      stakeId: command.stakeId,
      transactionId: '00000000-0000-4000-8000-000000000001',
      now,
    });
    expect(refusal(history, payout('2026-11-15T09:59:59.999Z'))).toEqual({
      code: 'invalid_state',
      message: 'This stake has not matured yet.',
    });
    const paid = run(history, payout('2026-11-15T10:00:00.000Z'));
    expect(paid.at(-1)).toMatchObject({
      type: 'wallet.stake-paid-out',
      data: { amount: '1.001802739726027397', principal: '1', earnings: '0.001802739726027397', sentAt: '2026-11-15T10:00:00.000Z' },
    });
    expect(assetBalance(fold(paid), 'BTC').balance.toFixed()).toBe('1.001802739726027397');
    expect(decide(payout('2027-01-01T00:00:00.000Z'), fold(paid))).toEqual([]);
    expect(
      refusal(history, { type: 'PayOutStake', stakeId: randomUUID(), transactionId: randomUUID(), now: '2030-01-01T00:00:00.000Z' }).code,
    ).toBe('not_found');
  });

  it('property: stakes and swaps never make an available balance negative, and every payout returns principal + earnings', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('swap' as const), amount: fc.integer({ min: 1, max: 3000 }) }),
      fc.record({
        kind: fc.constant('stake' as const),
        amount: fc.integer({ min: 1, max: 3000 }),
        plan: fc.constantFrom([7, '2.7'], [14, '4.7'], [30, '9.1']),
      }),
      fc.record({ kind: fc.constant('settle' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('payout' as const), pick: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        let history = run([], recorded('1'));
        const stakes: string[] = [];
        const swaps: string[] = [];
        for (const s of steps) {
          let command: WalletCommand;
          const amount = money(s.kind === 'swap' || s.kind === 'stake' ? s.amount : 0).dividedBy(10000);
          if (s.kind === 'swap') command = swap(amount.toFixed());
          else if (s.kind === 'stake')
            command = stake(amount.toFixed(), { durationDays: s.plan[0] as number, rate: money(s.plan[1] as string) });
          else if (s.kind === 'settle') {
            if (!swaps.length) continue;
            command = { type: 'SettleTransaction', transactionId: swaps[s.pick % swaps.length]!, by: { system: 'test' } };
          } else {
            if (!stakes.length) continue;
            command = {
              type: 'PayOutStake',
              stakeId: stakes[s.pick % stakes.length]!,
              transactionId: randomUUID(),
              now: '2027-01-01T00:00:00.000Z',
            };
          }
          try {
            history = run(history, command);
            if (command.type === 'OpenStake') stakes.push(command.stakeId);
            if (command.type === 'RequestSwap') swaps.push(command.fromTransactionId);
          } catch (err) {
            if (!(err instanceof WalletError)) throw err;
          }
          const state = fold(history);
          expect(availableBalance(state, 'BTC').isNegative()).toBe(false);
        }
        const paidOut = history.filter((e) => e.type === 'wallet.stake-paid-out');
        expect(new Set(paidOut.map((e) => e.data.stakeId)).size).toBe(paidOut.length);
        for (const e of paidOut) expect(money(e.data.amount).eq(money(e.data.principal).plus(e.data.earnings))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
