import { randomUUID } from 'node:crypto';
import { newId } from '../ids.js';
import fc from 'fast-check';
import { money } from '../money.js';
import { ASSET_IDS, type AssetId } from '../assets.js';
import type { WalletEvent } from './events.js';
import type { WalletCommand } from './wallet.js';
import type { StaffAct } from './staff-rule.js';

/** Command builders and fast-check generators shared by the wallet's tests. */
const sentAt = '2026-11-01T10:00:00.000Z';
const pm = randomUUID();

/**
 * The facts of a staff action for tests: a generous policy (no test amount reaches its limits
 * unless it means to), a fresh price at its median, nothing done alone today.
 */
export const staffAct = (makerId: string, over: Partial<StaffAct> = {}): StaffAct => ({
  maker: { id: makerId, role: 'WORKER' },
  now: new Date().toISOString(),
  policy: { limitUsd: '100000000000', dailyLimitUsd: '500000000000', maxPriceAgeS: 600, priceBand: '0.5', expiryHours: 72 },
  price: { usd: '1', ageS: 1, medianUsd: '1' },
  makerDayUsd: '0',
  requestId: randomUUID(),
  ...over,
});

export const deposit = (amount: string, assetId: AssetId = 'BTC', transactionId = newId()): WalletCommand => ({
  type: 'RequestDeposit',
  transactionId,
  assetId,
  amount: money(amount),
  paymentMethodId: pm,
  sentAt,
});
export const withdrawal = (amount: string, assetId: AssetId = 'BTC', transactionId = newId()): WalletCommand => ({
  type: 'RequestWithdrawal',
  transactionId,
  assetId,
  amount: money(amount),
  paymentMethodId: pm,
  sentAt,
});
export const recorded = (
  amount: string,
  status: 'Pending' | 'Complete' | 'Failed' = 'Complete',
  assetId: AssetId = 'BTC',
  transactionId = newId(),
): WalletCommand => ({
  type: 'RecordTransaction',
  transactionId,
  assetId,
  amount: money(amount),
  status,
  txType: 'adjustment',
  note: null,
  senderAddress: 'staff',
  txid: null,
  isHidden: false,
  reason: 'test',
  sentAt,
});

const amountArb = fc
  .tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 18 }))
  .map(([i, f, scale]) =>
    money(`${i}.${String(f).padStart(6, '0')}`)
      .toDecimalPlaces(scale)
      .plus(money(1).dividedBy(money(10).pow(scale))),
  )
  .map((d) => d.toFixed());

export type Step =
  | { kind: 'deposit' | 'withdraw' | 'send' | 'credit' | 'debit'; asset: AssetId; amount: string }
  | { kind: 'settle' | 'fail'; pick: number };

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('deposit', 'withdraw', 'send', 'credit', 'debit') as fc.Arbitrary<
      'deposit' | 'withdraw' | 'send' | 'credit' | 'debit'
    >,
    asset: fc.constantFrom(...ASSET_IDS.slice(0, 3)),
    amount: amountArb,
  }),
  fc.record({ kind: fc.constantFrom('settle', 'fail') as fc.Arbitrary<'settle' | 'fail'>, pick: fc.nat() }),
);

/** Turns a generated step into a command against the current history. */
export function commandFor(step: Step, history: WalletEvent[]): WalletCommand | null {
  switch (step.kind) {
    case 'deposit':
      return deposit(step.amount, step.asset);
    case 'withdraw':
      return withdrawal(step.amount, step.asset);
    case 'send':
      return {
        type: 'RequestSend',
        transactionId: newId(),
        assetId: step.asset,
        amount: money(step.amount),
        recipientAddress: '0x' + 'a'.repeat(40),
        sentAt,
      };
    case 'credit':
      return recorded(step.amount, 'Complete', step.asset);
    case 'debit':
      return recorded(`-${step.amount}`, 'Pending', step.asset);
    case 'settle':
    case 'fail': {
      const ids = history.flatMap((e) =>
        'transactionId' in e.data && e.type !== 'wallet.transaction-settled' && e.type !== 'wallet.transaction-failed'
          ? [e.data.transactionId]
          : [],
      );
      if (ids.length === 0) return null;
      const transactionId = ids[step.pick % ids.length]!;
      return step.kind === 'settle'
        ? { type: 'SettleTransaction', transactionId, by: { system: 'test' } }
        : { type: 'FailTransaction', transactionId, reason: null };
    }
  }
}
